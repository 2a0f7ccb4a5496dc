"""The log reader's former home, kept for imports.

See :mod:`take5rules.logs.structure` (the structural check) and :mod:`take5rules.logs.reader`
(the stream reader).
"""

from __future__ import annotations

from .logs.reader import MAX_LOG_BYTES, LogStream, decode_utf8, parse_json, read_capped
from .logs.structure import (
    FORMAT,
    VERSION,
    brief,
    check_document,
    check_identity,
    check_required,
    check_round,
    check_top,
    member_path,
)

__all__ = [
    "FORMAT",
    "MAX_LOG_BYTES",
    "VERSION",
    "LogStream",
    "brief",
    "check_document",
    "check_identity",
    "check_required",
    "check_round",
    "check_top",
    "decode_utf8",
    "member_path",
    "parse_json",
    "read_capped",
]
