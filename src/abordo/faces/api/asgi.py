"""ASGI entry point for several workers: ``uvicorn abordo.faces.api.asgi:app --workers 4``
(or gunicorn with uvicorn workers). The database URL comes from ``$ABORDO_DB``."""

from abordo.faces.api import create_app

app = create_app()
