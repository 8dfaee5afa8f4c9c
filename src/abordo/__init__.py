"""Abordo: Brazilian waterway and port labour law as executable, explainable, dated rules.

The public Python API re-exports the engines' entry points; each returns a
:class:`abordo.law.Decision` carrying its verdict, citations, interpretations and trace.
"""

from importlib.metadata import version as _version

__version__ = _version("abordo")  # one source: pyproject.toml
