"""The requests a conformance run sends before its generated turns.

The worked examples of the publisher's booklet and the founding texts (:data:`WORKED_EXAMPLES`)
and three invalid requests (:data:`INVALID_REQUESTS`), for which only an error reply is
required.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from take5rules._messages import N_
from take5rules.conformance import examples

__all__ = ["INVALID_REQUESTS", "WORKED_EXAMPLES", "RequestCase", "title"]


@dataclass(frozen=True, slots=True)
class RequestCase:
    """A request sent before the generated turns: a worked example or an invalid request."""

    id: str
    title: str
    request: Mapping[str, Any]


#: The publisher's and the founding texts' examples (:mod:`take5rules.conformance.examples`), as
#: requests.
WORKED_EXAMPLES: tuple[RequestCase, ...] = tuple(
    RequestCase(item.id, item.title, item.request) for item in examples.WORKED_EXAMPLES
)


#: Invalid requests: the program must answer each with an error object.
INVALID_REQUESTS: tuple[RequestCase, ...] = (
    RequestCase(
        "duplicate-card",
        N_("a card played that is already on the table"),
        {"rows": [[3, 12], [24], [58], [96]], "plays": [["ana", 12], ["bob", 30]],
         "choices": {}},
    ),
    RequestCase(
        "row-over-five",
        N_("a row of six cards"),
        {"rows": [[3, 12, 17, 20, 21, 22], [24], [58], [96]],
         "plays": [["ana", 30], ["bob", 40]], "choices": {}},
    ),
    RequestCase(
        "missing-choice",
        N_("a low card whose player has no row choice"),
        {"rows": [[12], [37], [43], [58]], "plays": [["ana", 5], ["bob", 40]],
         "choices": {"bob": 0}},
    ),
)



def title(source: str) -> str:
    """The title (a msgid) of the worked example or invalid request *source*, else *source*."""
    for example in (*WORKED_EXAMPLES, *INVALID_REQUESTS):
        if example.id == source:
            return example.title
    return source
