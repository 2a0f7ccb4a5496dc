python3 -m venv .venv
.venv/bin/pip install ./take5rules   # a clone of the repository (not on PyPI yet)
