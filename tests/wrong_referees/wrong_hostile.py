#!/usr/bin/env python3
"""A referee program that answers in hostile ways, chosen by ``--mode``.

* ``endless``: one line that never ends (no newline, ever);
* ``digits``: a reply holding a 5,000-digit number;
* ``nesting``: a reply nested 30,000 deep (short enough to be read whole);
* ``empty-taken``: right answers, listing every player who took nothing with ``[]``;
* ``accept-duplicate``: right answers, except that a card played twice is answered with a turn.
"""

from __future__ import annotations

import argparse
import json
import sys

from take5rules.conformance.referee import answer

MODES = ("endless", "digits", "nesting", "empty-taken", "accept-duplicate")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=MODES, required=True)
    mode = parser.parse_args().mode
    out = sys.stdout.buffer
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if mode == "endless":
            while True:
                out.write(b"x" * 65536)
                out.flush()
        elif mode == "digits":
            out.write(b'{"rows": [[1' + b"7" * 5000 + b"]], \"taken\": {}, \"chosen\": {}}\n")
        elif mode == "nesting":
            out.write(b"[" * 30_000 + b"]" * 30_000 + b"\n")
        else:
            reply = answer(request)
            if mode == "empty-taken" and "error" not in reply:
                reply["taken"] = {player: reply["taken"].get(player, [])
                                  for player, _ in request["plays"]}
            if mode == "accept-duplicate" and "error" in reply \
                    and reply["error"]["rule"] == "cards.deck":
                reply = {"rows": request["rows"], "taken": {}, "chosen": {}}
            out.write(json.dumps(reply).encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
