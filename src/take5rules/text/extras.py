"""The guard at the top of a module that needs an optional extra (``env``, ``mcp_server``).

On a plain install, ``import take5rules.agents.pettingzoo_env`` (and ``agents.batch``,
``agents.openspiel_game``, ``conformance.strategies``) raises :class:`MissingExtraError` (an
``ImportError``) saying which extra to install, instead of numpy's bare
``ModuleNotFoundError``; ``python -m take5rules.agents.mcp_server`` and ``take5rules mcp`` say it
in one line on stderr and exit with status 2.

>>> error = ModuleNotFoundError("No module named 'mcp'", name="mcp")
>>> raise missing_extra("take5rules.agents.mcp_server", error, "mcp")
Traceback (most recent call last):
...
take5rules.text.extras.MissingExtraError: take5rules.agents.mcp_server needs the optional \
package mcp; install it with: pip install 'take5rules[mcp]' [extra]
"""

from __future__ import annotations

import sys

from take5rules._messages import N_
from take5rules.errors import Take5Error

__all__ = ["MissingExtraError", "missing_extra"]

_NEEDS = N_("{module} needs the optional package {package}; install it with: "
            "pip install 'take5rules[{extra}]'")


class MissingExtraError(Take5Error, ModuleNotFoundError):
    """An optional package of an extra is not installed (id ``extra``: no rule is broken)."""


def missing_extra(module: str, error: ModuleNotFoundError, extra: str, *,
                  package: str | None = None) -> MissingExtraError:
    """The error to raise when *module* misses the package of *error*, installed by *extra*.

    *package* is the package to name (default: the one *error* names), so that a module whose
    first import is a dependency of the extra's package (``anyio`` for ``mcp``) names the
    package a user knows. When *module* is run as a program
    (``python -m take5rules.agents.mcp_server``), say it in one line on stderr and exit with
    status 2 instead.
    """
    package = package or (error.name or "").partition(".")[0] or str(error)
    if module == "__main__":
        from take5rules.text import default_language, phrase_text

        spec = getattr(sys.modules.get("__main__"), "__spec__", None)
        shown = spec.name if spec is not None else module
        sys.stderr.write(phrase_text(_NEEDS, default_language(), module=shown, package=package,
                                     extra=extra) + "\n")
        sys.exit(2)
    return MissingExtraError("extra", _NEEDS, module=module, package=package, extra=extra)
