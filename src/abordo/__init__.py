"""Abordo: Brazilian waterway and port labour law as executable, explainable, dated rules.

The public Python API re-exports the engines' entry points; each returns a
:class:`abordo.law.Decision` carrying its verdict, citations, interpretations and trace.
"""

__version__ = "0.1.0"
