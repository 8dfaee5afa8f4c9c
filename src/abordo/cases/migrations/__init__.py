"""Alembic migrations of the case store (package data)."""
