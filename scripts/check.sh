#!/usr/bin/env bash
# Set up, then run every check: ruff, mypy --strict, and the whole pytest suite (doctests, unit,
# property and stateful tests, catalogs, the wheel, the docs build and the browser test), the
# tests marked slow too (tests/conftest.py lists them). Arguments go to pytest: the fast loop
# with the linters is `bash scripts/check.sh -m "not slow"`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The browser test drives Debian's Chromium; install it when missing and we may (as root).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser test..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
    || echo "could not install chromium: the browser test will be skipped"
fi
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict"
.venv/bin/mypy --strict src tests docs examples scripts benchmarks training hatch_build.py
echo "== pytest${*:+ $*}"
.venv/bin/python -m pytest -q "$@"
