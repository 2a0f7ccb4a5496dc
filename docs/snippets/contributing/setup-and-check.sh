bash scripts/setup.sh                                       # .venv with the development tools; Pyodide for the Play page (npm ci) where npm exists
.venv/bin/python -m pytest -q -m "not slow and not browser" # the fast tests
.venv/bin/ruff check . && .venv/bin/mypy --strict src tests
bash scripts/check.sh                                       # everything, as the CI runs it
