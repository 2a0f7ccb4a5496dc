#!/usr/bin/env python3
"""A right referee that is noisy: blank lines on stdout and chatter on stderr around replies."""

from __future__ import annotations

import json
import sys

from take5rules.conformance.referee import answer


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        print(f"noisy_referee: got {len(line)} bytes", file=sys.stderr, flush=True)
        print("", flush=True)
        print(json.dumps(answer(json.loads(line))), flush=True)
        print("   ", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
