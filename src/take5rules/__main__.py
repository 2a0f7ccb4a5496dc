"""``python -m take5rules``: the ``take5rules`` command, for when the script is not on PATH.

>>> import subprocess, sys
>>> subprocess.run([sys.executable, "-m", "take5rules", "ids"], capture_output=True,
...                text=True, check=True).stdout.split()[:2]
['cards.deck', 'cards.bull-heads']
"""

from __future__ import annotations

from take5rules.cli.main import main

if __name__ == "__main__":
    main(prog_name="take5rules")
