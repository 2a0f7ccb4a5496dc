.venv/bin/pip install -e ".[bench]"                   # py6nimmt 0.1.2
.venv/bin/python benchmarks/run.py                    # every benchmarks/bench_*.py, then the core count
.venv/bin/python benchmarks/bench_engine.py --players --write   # this page's plot and figures
.venv/bin/python benchmarks/bench_play.py                     # the Play page: its transfer size and time to play
