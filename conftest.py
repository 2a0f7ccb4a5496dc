"""Collection: the doctests of a module whose optional extra is not installed are left out.

``take5rules.agents.batch`` needs ``take5rules[batch]``, ``take5rules.agents.pettingzoo_env``
``take5rules[env]`` and
``take5rules.agents.mcp_server`` ``take5rules[mcp]``, ``take5rules.agents.openspiel_game``
``take5rules[openspiel]``
(the ``dev`` extra installs them all); their test
files skip themselves with the reason when the extra is missing.
"""

from __future__ import annotations

import importlib.util

_EXTRAS = {
    "src/take5rules/agents/batch/__init__.py": ("numpy",),
    "src/take5rules/agents/pettingzoo_env.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/take5rules/agents/mcp_server.py": ("mcp",),
    "src/take5rules/agents/openspiel_game.py": ("numpy", "pyspiel"),
    "src/take5rules/agents/openspiel_state.py": ("pyspiel",),
    "src/take5rules/agents/openspiel_observer.py": ("numpy", "pyspiel"),
}

collect_ignore = [
    path for path, modules in _EXTRAS.items()
    if any(importlib.util.find_spec(module) is None for module in modules)
]
