#!/usr/bin/env python3
"""A wrong referee: answers the first request right, then never answers again."""

from __future__ import annotations

import json
import sys
import time

from take5rules.conformance.referee import answer


def main() -> int:
    first = True
    for line in sys.stdin:
        if not line.strip():
            continue
        if first:
            print(json.dumps(answer(json.loads(line))), flush=True)
            first = False
            continue
        print("wrong_hang: thinking very hard...", file=sys.stderr, flush=True)
        while True:
            time.sleep(60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
