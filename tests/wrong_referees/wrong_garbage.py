#!/usr/bin/env python3
"""A wrong referee: answers with text that is not a protocol reply.

By default it prints a line that is not JSON; with ``--shape`` it prints JSON of the wrong
shape (rows that are not four lists of cards).
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    shape = "--shape" in sys.argv[1:]
    for line in sys.stdin:
        if not line.strip():
            continue
        if shape:
            print(json.dumps({"rows": "all of them", "taken": {}, "chosen": {}}), flush=True)
        else:
            print("OK, placed the cards. Next!", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
