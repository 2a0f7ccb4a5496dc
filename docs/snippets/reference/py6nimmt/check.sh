python3 -m venv /tmp/py6venv && /tmp/py6venv/bin/pip install py6nimmt==0.1.2
take5rules conform --cmd "/tmp/py6venv/bin/python examples/py6nimmt_adapter.py"
take5rules conform --cmd "/tmp/py6venv/bin/python examples/py6nimmt_adapter.py --ascending"
