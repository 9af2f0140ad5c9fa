#!/usr/bin/env bash
# Install what the tests need (Redis, Chromium, PostgreSQL, curl, the Python env) and run them all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh chromium postgresql curl
.venv/bin/ruff check .
.venv/bin/pytest "$@"
