"""Abordo: Brazilian waterway and port labour law as executable, explainable, dated rules.

The public Python API re-exports the engines' entry points; each returns a
:class:`abordo.law.Decision` carrying its verdict, citations, interpretations and trace.
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:
    __version__ = _version("abordo")  # one source: pyproject.toml
except PackageNotFoundError:  # run from a source tree that was not installed
    __version__ = "0+unknown"
