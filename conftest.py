"""Collection: the doctests of a module whose optional extra is not installed are left out.

``take5rules.batch`` needs ``take5rules[batch]``, ``take5rules.env`` ``take5rules[env]`` and
``take5rules.mcp_server`` ``take5rules[mcp]``, ``take5rules.openspiel`` ``take5rules[openspiel]``
(the ``dev`` extra installs them all); their test
files skip themselves with the reason when the extra is missing.
"""

from __future__ import annotations

import importlib.util

_EXTRAS = {
    "src/take5rules/batch.py": ("numpy",),
    "src/take5rules/env.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/take5rules/mcp_server.py": ("mcp",),
    "src/take5rules/openspiel.py": ("numpy", "pyspiel"),
    "src/take5rules/_openspiel_core.py": ("pyspiel",),
    "src/take5rules/_openspiel_view.py": ("numpy", "pyspiel"),
}

collect_ignore = [
    path for path, modules in _EXTRAS.items()
    if any(importlib.util.find_spec(module) is None for module in modules)
]
