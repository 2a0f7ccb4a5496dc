#!/usr/bin/env bash
# Set up a development environment in .venv: the package (editable, catalogs compiled) and every
# tool the tests use. Needs only python3 (3.11+) and the package registries.
#
# Installs once: the install is stamped with a hash of what decides it (pyproject.toml, the build
# hook, this script, the interpreter); while the stamp matches, only the catalogs are compiled
# again (they may have changed, e.g. after a `git pull`). Any change to the dependencies, or a
# broken environment, installs again. `bash scripts/setup.sh --force` always installs.
#
# Where npm exists, the docs' browser runtime (Pyodide, pinned in package-lock.json with its
# integrity) is installed into node_modules/ by `npm ci`, from the project's own files; without
# npm the docs still build, and their Play page says the runtime is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
npm_install() {
  command -v npm >/dev/null || { echo "npm is missing: the docs' Play page will be built without its runtime"; return 0; }
  if [ "$(node -p 'require("./node_modules/pyodide/package.json").version' 2>/dev/null)" \
       != "$(node -p 'require("./package-lock.json").packages["node_modules/pyodide"].version')" ]; then
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
  fi
}
npm_install
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "take5rules needs Python 3.11 or newer")'
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.take5rules-installed
wanted="$({ cat pyproject.toml hatch_build.py scripts/setup.sh; .venv/bin/python -VV; } \
  | .venv/bin/python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
if [ "${1:-}" != "--force" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] \
   && [ -x .venv/bin/take5rules ] && .venv/bin/python -c 'import take5rules.cli.main' 2>/dev/null; then
  .venv/bin/python scripts/catalogs.py compile >/dev/null
  exit 0
fi
rm -f "$stamp"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev]"
echo "$wanted" > "$stamp"
