"""Importing a module that needs an optional extra: say which extra to install.

A module of an extra imports its packages in a ``try`` block and, when one is missing, raises
:func:`missing`'s error instead of Python's bare ``No module named ...``:

>>> try:
...     import no_such_package_here
... except ModuleNotFoundError as error:
...     print(missing("env", error))
take5rules[env] is needed: the optional package no_such_package_here is missing; install it \
with: pip install 'take5rules[env]'
"""

from __future__ import annotations

from ._text import N_

__all__ = ["missing"]

_MISSING = N_("take5rules[{extra}] is needed: the optional package {package} is missing; "
              "install it with: pip install 'take5rules[{extra}]'")


def missing(extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise for *error*, naming *extra*, in the environment's language."""
    from .i18n import default_language, translator

    package = (error.name or "").partition(".")[0]
    text = translator(default_language()).gettext(_MISSING)
    return ModuleNotFoundError(text.format(extra=extra, package=package), name=error.name)
