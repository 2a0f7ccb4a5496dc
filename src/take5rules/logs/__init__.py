"""Game logs: the take5-log format, its reader, its writer, its validator and its test suite.

The layers, each importing only those above it:

* :mod:`~take5rules.logs.structure`: the shape of a log (its JSON Schema, written by hand);
* :mod:`~take5rules.logs.reader`: JSON text parsed safely, a log read incrementally;
* :mod:`~take5rules.logs.format`: the format's schema, loading and dumping;
* :mod:`~take5rules.logs.writer`: a log written from the engine's events;
* :mod:`~take5rules.logs.report`: what the validator reports (violations, the report);
* :mod:`~take5rules.logs.deal`, :mod:`~take5rules.logs.claims`: a round's deal or draft, and
  the claims, checked by the rule functions (the rule that decides a wrong claim is
  :mod:`take5rules.logs.attribution`'s);
* :mod:`~take5rules.logs.fast`: the fast path, a round replayed on plain ints;
* :mod:`~take5rules.logs.round_check`: the full replay, which names every violation;
* :mod:`~take5rules.logs.validator`: the public entry points (:func:`validate` and the file
  and stream readers);
* :mod:`~take5rules.conformance.defects`, :mod:`~take5rules.conformance.vectors`: every way a log
can break
  the rules, and the language-neutral test suite generated from them.

The public import paths are the facades :mod:`take5rules.logs`, :mod:`take5rules.logs.validator`,
:mod:`take5rules.conformance.defects` and :mod:`take5rules.conformance.vectors`. Nothing is imported
here, so that
importing one layer does not import the others.
"""
