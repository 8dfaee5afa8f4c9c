"""Command-line face (Typer + Rich)."""
