"""Playing: the :class:`~take5rules.playing.stepper.Game` stepper, the engine and the players.

* :mod:`~take5rules.playing.stepper`: :class:`Game`, a whole game of any variant, one decision
  at a time, with its moves, undo, saved games and logs;
* :mod:`~take5rules.playing.answers`: the checks of a game's answers and of a given deal;
* :mod:`~take5rules.playing.saved`: a game as a JSON document;
* :mod:`~take5rules.playing.engine`: whole games and tournaments between player objects;
* :mod:`~take5rules.playing.views` and :mod:`~take5rules.playing.players`: what a seat sees,
  and the :class:`~take5rules.playing.players.Player` protocol with the simple players;
* :mod:`~take5rules.playing.bots`, :mod:`~take5rules.playing.ismcts` and
  :mod:`~take5rules.playing.belief`: the search players and what a seat may believe;
* :mod:`~take5rules.playing.human`: a person at the table, asked as text.
"""
