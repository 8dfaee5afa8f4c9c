"""Shared test settings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _command_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The command's entry point sets LANGUAGE for its process (abordo.faces.cli.messages);
    a test that calls it in-process must not leave it to the next test."""
    monkeypatch.delenv("LANGUAGE", raising=False)
    yield
