"""The REST API (FastAPI) under ``/api/v1``: ``create_app(db_url)``."""

from abordo.faces.api.app import create_app

__all__ = ["create_app"]
