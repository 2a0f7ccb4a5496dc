"""click's own frame ("Usage:", "Error: ...", "Invalid value for ...") in the language asked.

click words its messages through :mod:`gettext` (``_`` and ``ngettext`` in each of its
modules). :func:`speak` points those names at the catalog of one language, so that
``take5rules play --players x --lang fr`` says ``Erreur : ...`` rather than ``Error: ...``.
The msgids below are click's own, word for word (a test checks each one against click's
source), so that the catalogs translate them like every other message.
"""

from __future__ import annotations

import sys
from typing import Any

from take5rules._messages import N_, Nn_

__all__ = ["CLICK_MESSAGES", "CLICK_PLURALS", "speak", "unspeak"]

#: The messages click prints at run time through our commands.
CLICK_MESSAGES = (
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing command."),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Option {name!r} does not take a value."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    N_("Aborted!"),
)

#: click's plural messages (singular, plural).
CLICK_PLURALS = (
    Nn_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    Nn_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    Nn_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    Nn_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
)

_MODULES = ("core", "exceptions", "types", "parser", "formatting", "decorators", "termui",
            "utils")


def speak(language: str) -> None:
    """Make click word its messages in *language*, until :func:`unspeak`."""
    from take5rules.text import translator

    catalog = translator(language).catalog

    def gettext(message: str) -> str:
        return str(catalog.gettext(message))

    def ngettext(singular: str, plural: str, count: int) -> str:
        return str(catalog.ngettext(singular, plural, count))

    _point(gettext, ngettext)


def unspeak() -> None:
    """Give click back its own gettext (as a command ends: the next may be in another language)."""
    import gettext

    _point(gettext.gettext, gettext.ngettext)


def _point(gettext: Any, ngettext: Any) -> None:
    import click

    for name in _MODULES:
        module: Any = sys.modules.get(f"click.{name}") or getattr(click, name, None)
        if module is None:
            continue
        if hasattr(module, "_"):
            module._ = gettext
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext
