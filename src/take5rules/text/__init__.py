"""The text around the rules, one job a module (:mod:`take5rules.i18n` gathers them).

* :mod:`~take5rules.text.negotiation`: which language to speak, and its catalog;
* :mod:`~take5rules.text.typography`: quotation marks, labels, located error messages;
* :mod:`~take5rules.text.rulebook`: the rules, their sources and the sources' discrepancies;
* :mod:`~take5rules.text.narration`: the events of a game told.
"""
