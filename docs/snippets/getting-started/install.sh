python3 -m venv .venv
.venv/bin/pip install take5rules
