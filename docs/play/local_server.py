"""A built site served on 127.0.0.1 by ``http.server``, in a thread (browser tests, benchmarks).

Plain ``http.server``: the files as they are, no compression and no cache headers, as a simple
static host or a local folder gives them.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

#: Debian's Chromium, headless and quiet: no network of its own (updates, sync, QUIC).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class QuietHandler(SimpleHTTPRequestHandler):
    """http.server's handler without its log lines."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(site: Path) -> Iterator[str]:
    """*site* served on 127.0.0.1 (a free port) while the block runs; its base URL."""
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
