"""Conformance: our referee as an oracle, and another referee program checked against it.

* :mod:`~take5rules.conformance.referee`: the referee line protocol (one JSON turn per line);
* :mod:`~take5rules.conformance.cases`: the requests sent before the generated turns;
* :mod:`~take5rules.conformance.program`: the process driver, one request and reply at a time;
* :mod:`~take5rules.conformance.outcome`: the result of a run, in words or JSON;
* :mod:`~take5rules.conformance.shrink`: a disagreement shrunk to a smaller turn;
* :mod:`~take5rules.conformance.run`: the run itself;
* :mod:`~take5rules.conformance.plugin`: the pytest fixture ``take5_conformance``.

The rule that decides a disagreement is :func:`take5rules.logs.attribution.deciding_rule`. The
public
import paths are the facades :mod:`take5rules.conformance.referee`,
:mod:`take5rules.conformance.run` and
:mod:`take5rules.conformance.plugin`. Nothing is imported here, so that the pytest plugin stays
light.
"""
