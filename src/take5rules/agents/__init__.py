"""Agents: Take 5 for programs that learn, search and are measured.

* :mod:`~take5rules.agents.encoding`: the observation and action encoding of every front end;
* :mod:`~take5rules.agents.batch`: many games at once with numpy, and a Pgx-style vector env;
* :mod:`~take5rules.agents.pettingzoo_env`, :mod:`~take5rules.agents.gymnasium_env` and
  :mod:`~take5rules.agents.openspiel_game`: the environments;
* :mod:`~take5rules.agents.arena` and :mod:`~take5rules.agents.ladder`: fair evaluation of
  players on duplicate deals;
* :mod:`~take5rules.agents.mcp_server`: a seat at the table for language-model agents.

Nothing here is imported by ``import take5rules``: each module names the extra it needs.
"""
