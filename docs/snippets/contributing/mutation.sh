.venv/bin/pip install -e ".[mutation]"      # mutmut 3.8.1
.venv/bin/python scripts/mutate.py          # 3 to 7 minutes on 2 cores
.venv/bin/python scripts/mutate.py --modules table --no-mutmut   # a quick look at one module
