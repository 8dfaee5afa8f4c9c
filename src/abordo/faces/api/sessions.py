"""The browser session's signing key, one per application (its service's database)."""

import os

from itsdangerous import URLSafeTimedSerializer
from sqlalchemy.exc import IntegrityError

from abordo.cases import auth
from abordo.cases.service import CaseService

SESSION_COOKIE = "abordo_session"
SESSION_MAX_AGE = 12 * 3600


class SessionKeys:
    """The key that signs session cookies: ``$ABORDO_SECRET_KEY`` or the one stored in the
    application's database, read once per application."""

    def __init__(self, service: CaseService) -> None:
        self._service = service
        self._key: str | None = None

    def secret(self) -> str:
        if self._key is None:
            env = os.environ.get("ABORDO_SECRET_KEY")
            if env:
                self._key = env
            else:
                try:
                    with self._service.tx() as s:
                        self._key = auth.secret_key(s)
                except IntegrityError:
                    # Another worker stored it at the same moment: that one is the key.
                    with self._service.tx() as s:
                        self._key = auth.secret_key(s)
        return self._key

    def serializer(self) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self.secret(), salt="abordo-session")
