#!/usr/bin/env python3
"""A wrong referee: answers the first two requests right, then dies on the third."""

from __future__ import annotations

import json
import sys

from take5rules.conformance.referee import answer


def main() -> int:
    count = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        count += 1
        if count == 3:
            print("wrong_crash: out of cheese on request 3", file=sys.stderr, flush=True)
            return 70
        print(json.dumps(answer(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
