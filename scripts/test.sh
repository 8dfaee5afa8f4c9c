#!/usr/bin/env bash
# Install Abordo with its test dependencies in .venv and run the whole test suite.
# The storage tests need PostgreSQL: start the local cluster when it is installed but stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  fi
fi
.venv/bin/ruff check
.venv/bin/mypy
# One test process per CPU (pytest-xdist): each has its own PostgreSQL database.
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n auto "$@"
