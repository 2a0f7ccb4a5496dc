#!/usr/bin/env bash
# Set up a development environment in .venv: the package (editable, catalogs compiled) and every
# tool the tests use. Needs only python3 (3.11+) and the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "take5rules needs Python 3.11 or newer")'
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
