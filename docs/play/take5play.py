"""The Python side of the docs' Play page and live examples, run in the reader's browser.

The docs build ships this module beside the take5rules and Babel wheels; ``play.js`` loads them
into Pyodide and calls the four functions below, each taking and returning JSON text:

* :func:`new_game` and :func:`answer` play a whole game against the built-in players. The page's
  seats are :class:`PagePlayer`\\ s: the engine asks them for a card, a row or a draft pick, and
  when the reader has not answered yet the game stops there (:class:`Waiting`) and the page
  shows the question. Each answer replays the game from its seed with the answers so far: the
  engine is deterministic, so the game is the same one, now one decision further. Nothing of
  the rules is here: every card, row and score comes from
  :func:`take5rules.playing.engine.play_game`,
  every sentence from :func:`take5rules.text.narrate`, every picture from
  :func:`take5rules.text.pictures.to_svg`.
* :func:`run_example` runs a rule's worked example (the doctest of its function).
* :func:`try_turn` resolves one turn that the reader typed, with each placement's rule named.

The docs build imports it too (:func:`placement_event`), and ``tests/test_play.py`` tests it in
CPython.
"""

from __future__ import annotations

import doctest
import json
import re
import sys
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from take5rules import registry
from take5rules import text as i18n
from take5rules.agents.arguments import checked_threshold
from take5rules.cards import bull_heads
from take5rules.errors import MalformedInputError, Take5Error
from take5rules.events import (
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    RowTaken,
    SixthCardTaken,
)
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import CardView, DraftView, Player, RandomPlayer, RowChoice
from take5rules.setup import check_players
from take5rules.table import Placement, Table
from take5rules.text.pictures import CARD_STYLES, to_svg, turn_svgs
from take5rules.turn import LowCard, placement_order, resolve_turn
from take5rules.variants import Rules, Variant

#: The kind of seat the reader plays from the page (the others are BUILTIN_PLAYERS' names).
PAGE_SEAT = "page"

#: The rule that decides each kind of placement event.
PLACEMENT_RULES: dict[type[Event], str] = {
    CardPlaced: "table.least-difference",
    SixthCardTaken: "table.sixth-card",
    LowCardTaken: "table.low-card",
}


def placement_event(player: str, placement: Placement, round_: int = 1, turn: int = 1) -> Event:
    """The event of one :class:`~take5rules.table.Placement`, to narrate it."""
    rows = placement.table.rows
    if placement.rule == "table.sixth-card":
        return SixthCardTaken(round_, turn, player, placement.card, placement.row,
                              placement.taken, rows)
    if placement.rule == "table.low-card":
        return LowCardTaken(round_, turn, player, placement.card, placement.row,
                            placement.taken, rows)
    return CardPlaced(round_, turn, player, placement.card, placement.row, rows)


# --- a game played from the page ---------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """What the engine asks a page seat: a card, a row or a draft pick (``kind``)."""

    kind: str
    player: str
    view: CardView | RowChoice | DraftView


class Waiting(Exception):  # noqa: N818 -- not an error: the game stops to ask the reader
    """Raised by a :class:`PagePlayer` that has no answer yet; caught by :class:`PageGame`."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.kind)
        self.decision = decision


class PagePlayer:
    """A seat played from the page: it answers from the reader's answers so far, in order."""

    def __init__(self, name: str, answers: Iterator[int]) -> None:
        self.name = name
        self._answers = answers

    def _answer(self, kind: str, view: CardView | RowChoice | DraftView) -> int:
        for value in self._answers:
            return value
        raise Waiting(Decision(kind, self.name, view))

    def choose_card(self, view: CardView) -> int:
        return self._answer("card", view)

    def choose_row(self, choice: RowChoice) -> int:
        return self._answer("row", choice)

    def choose_draft(self, view: DraftView) -> int:
        return self._answer("draft", view)


@dataclass
class PageGame:
    """A game between page seats and built-in players, replayed from *seed* at each answer."""

    seats: tuple[tuple[str, str], ...]
    rules: Rules
    seed: int
    language: str
    answers: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    waiting: Decision | None = None

    def players(self) -> dict[str, Player]:
        answers = iter(self.answers)
        seated: dict[str, Player] = {}
        for index, (name, kind) in enumerate(self.seats):
            if kind == PAGE_SEAT:
                seated[name] = PagePlayer(name, answers)
            elif kind == "random":
                seated[name] = RandomPlayer(self.seed * 31 + index)
            else:
                seated[name] = BUILTIN_PLAYERS[kind]()
        return seated

    def advance(self) -> None:
        """Play from the start with the answers so far, up to the next question or the end."""
        events: list[Event] = []
        self.waiting = None
        try:
            for event in play_game(self.players(), self.rules, self.seed):
                events.append(event)
        except Waiting as waiting:
            self.waiting = waiting.decision
        self.events = events

    def answer(self, value: int) -> None:
        """Give the reader's answer to the question asked; an illegal one is refused."""
        self.answers.append(value)
        try:
            self.advance()
        except Take5Error:
            self.answers.pop()
            self.advance()
            raise

    @property
    def page_seats(self) -> tuple[str, ...]:
        return tuple(name for name, kind in self.seats if kind == PAGE_SEAT)

    def narration(self, event: Event) -> str:
        if isinstance(event, RoundStarted) and len(self.page_seats) <= 1:
            # The reader sees their own hand, not the others'.
            hands = {name: hand for name, hand in event.hands.items() if name in self.page_seats}
            event = RoundStarted(event.round, event.rows, hands)
        return i18n.narrate(event, self.language)

    def log(self) -> list[dict[str, Any]]:
        entries = []
        for event in self.events:
            rule = PLACEMENT_RULES.get(type(event))
            entry: dict[str, Any] = {"kind": event.kind, "text": self.narration(event)}
            if rule is not None:
                entry["rule"] = rule
                entry["title"] = i18n.explain(rule, self.language).title
            if isinstance(event, (CardsRevealed, RoundStarted, RoundScored, GameOver)):
                entry["round"] = event.round if not isinstance(event, GameOver) else None
            entries.append(entry)
        return entries

    def rows(self) -> tuple[tuple[int, ...], ...] | None:
        """The rows on the table now (after the last event), if a round has started."""
        for event in reversed(self.events):
            if isinstance(event, (CardPlaced, SixthCardTaken, LowCardTaken)):
                return event.rows
            if isinstance(event, RoundStarted):
                return event.rows
            if isinstance(event, RoundScored):
                return None
        return None

    def taken(self) -> dict[str, int]:
        """The bull heads each seat has taken this round, as the terminal game shows them.

        The totals only grow when a round is scored; these are the cards taken since the
        round started (none before its deal, or once it is scored).
        """
        taken = {name: 0 for name, _ in self.seats}
        for event in self.events:
            if isinstance(event, (RoundStarted, RoundScored)):
                taken = {name: 0 for name, _ in self.seats}
            elif isinstance(event, RowTaken):  # a sixth card's or a low card's
                taken[event.player] += event.bull_heads
        return taken

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = {"log": self.log(), "seed": self.seed}
        last = self.events[-1] if self.events else None
        totals = {name: 0 for name, _ in self.seats}
        for event in self.events:
            if isinstance(event, (RoundScored, GameOver)):
                totals = dict(event.totals)
        state["totals"] = [[name, total] for name, total in totals.items()]
        state["taken"] = [[name, heads] for name, heads in self.taken().items()]
        if isinstance(last, GameOver):
            state["phase"] = "over"
            state["winners"] = list(last.winners)
            return state
        decision = self.waiting
        if decision is None:  # pragma: no cover -- play_game always ends with GameOver
            state["phase"] = "over"
            return state
        state["phase"] = decision.kind
        state["player"] = decision.player
        view = decision.view
        if isinstance(view, CardView):
            state["hand"] = list(view.hand)
            state["svg"] = to_svg(view.table, pending=view.hand,
                                  caption=i18n.rows_text(view.table.rows, self.language))
        elif isinstance(view, RowChoice):
            state["card"] = view.card
            state["svg"] = to_svg(view.table, pending=(view.card,),
                                  caption=i18n.rows_text(view.table.rows, self.language))
        else:
            state["pool"] = [card_face(value) for value in view.pool]
            state["hand"] = list(view.hand)
        return state


def card_face(value: int) -> dict[str, Any]:
    """A card's number, bull heads and colours (the SVG pictures' own), for a button."""
    style = CARD_STYLES[bull_heads(value)]
    return {"card": value, "heads": bull_heads(value), "face": style.face,
            "border": style.border, "ink": style.ink}


GAME: PageGame | None = None


def _error(error: Take5Error, language: str) -> str:
    return json.dumps({"error": i18n.error_message(error, language)}, ensure_ascii=False)


def _malformed() -> MalformedInputError:
    """What the page gets for a request it cannot have sent (the page's own are well formed)."""
    return MalformedInputError("argument", "malformed JSON")  # a msgid of the catalogs


def _request(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise _malformed() from None
    if not isinstance(value, dict):
        raise _malformed()
    return value


def _language(request: dict[str, Any]) -> str:
    language = request.get("language", "en")
    return language if isinstance(language, str) else "en"


def new_game(config: str) -> str:
    """Start a game from the page's form; return its state (JSON) at the first question.

    *config* is JSON: ``language``, ``seats`` (``[name, kind]`` pairs, kind ``page`` or a
    built-in player's name), ``variant``, ``threshold`` and ``seed``.
    """
    global GAME
    language = "en"
    try:
        settings = _request(config)
        language = _language(settings)
        seats = settings.get("seats")
        if not isinstance(seats, list) or not all(
            isinstance(seat, list) and len(seat) == 2 and isinstance(seat[0], str)
            and seat[1] in (PAGE_SEAT, *BUILTIN_PLAYERS) for seat in seats
        ):
            raise _malformed()
        threshold, seed = settings.get("threshold", 66), settings.get("seed", 0)
        if type(seed) is not int or type(threshold) is not int:
            raise _malformed()
        seated = tuple((str(name).strip(), str(kind)) for name, kind in seats)
        # The bound `take5rules play` and the MCP server play to (rule variants.threshold, the
        # same message); Rules then refuses a threshold below 1.
        rules = Rules(Variant.parse(settings.get("variant", "standard")),
                      checked_threshold(threshold))
        check_players([name for name, _ in seated], rules)
        game = PageGame(seated, rules, seed, language)
        game.advance()
    except Take5Error as error:
        return _error(error, language)
    GAME = game
    return json.dumps(game.state(), ensure_ascii=False)


def answer(value: int) -> str:
    """Answer the question the game asks (a card, a row index 0..3, a pick); the new state."""
    if GAME is None or GAME.waiting is None:
        return _error(_malformed(), GAME.language if GAME else "en")
    try:
        if type(value) is not int:
            raise _malformed()
        GAME.answer(value)
    except Take5Error as error:
        return _error(error, GAME.language)
    return json.dumps(GAME.state(), ensure_ascii=False)


# --- live examples -----------------------------------------------------------------------------


def _short(got: str) -> str:
    """A traceback as a doctest writes it: its first line, "...", and the exception."""
    lines = got.splitlines(keepends=True)
    if not lines or not lines[0].startswith("Traceback (most recent call last):"):
        return got
    frames = [index for index, line in enumerate(lines) if line[:1].isspace()]
    return "".join([lines[0], "...\n", *lines[frames[-1] + 1 if frames else 1:]])


class _Recorder(doctest.DocTestRunner):
    """A doctest runner that keeps each example's source, expected and actual output."""

    def __init__(self) -> None:
        super().__init__(verbose=False, optionflags=doctest.ELLIPSIS)
        self.results: list[dict[str, Any]] = []

    def report_start(self, out: Any, test: doctest.DocTest, example: doctest.Example) -> None:
        pass

    def report_success(self, out: Any, test: doctest.DocTest, example: doctest.Example,
                       got: str) -> None:
        self.results.append({"source": example.source, "want": example.want,
                             "got": _short(got), "ok": True})

    def report_failure(self, out: Any, test: doctest.DocTest, example: doctest.Example,
                       got: str) -> None:
        self.results.append({"source": example.source, "want": example.want,
                             "got": _short(got), "ok": False})

    def report_unexpected_exception(self, out: Any, test: doctest.DocTest,
                                    example: doctest.Example, exc_info: Any) -> None:
        got = "Traceback (most recent call last):\n...\n" + "".join(
            traceback.format_exception_only(exc_info[0], exc_info[1]))
        self.results.append({"source": example.source, "want": example.want, "got": got,
                             "ok": False})


def run_example(rule_id: str) -> str:
    """Run the worked example of rule *rule_id* (its function's doctest): each example's result."""
    function = registry.get(rule_id).function
    module = sys.modules[function.__module__]
    tests = doctest.DocTestFinder(recurse=False).find(
        function, function.__name__, module=module, globs=vars(module).copy()
    )
    recorder = _Recorder()
    for test in tests:
        recorder.run(test, out=lambda text: None, clear_globs=True)
    return json.dumps({"examples": recorder.results}, ensure_ascii=False)


_NUMBER = re.compile(r"-?\d+")


def _numbers(text: str) -> list[int]:
    return [int(value) for value in _NUMBER.findall(text)]


def _pairs(text: str) -> dict[str, int]:
    """``"ana 93, bob 4"`` (or ``ana=93``, one a line) as ``{"ana": 93, "bob": 4}``."""
    pairs: dict[str, int] = {}
    for name, value in re.findall(r"([^\s,;:=\d][^\s,;:=]*)\s*[=:]?\s*(-?\d+)", text):
        pairs[name] = int(value)
    return pairs


def try_turn(request: str) -> str:
    """Resolve the turn the reader typed: pictures and narration, each placement's rule named.

    *request* is JSON: ``rows`` (four texts of card numbers), ``plays`` (each player's card,
    ``ana 93, bob 4``), ``choices`` (the row, 1 to 4, each low card's player takes: ``bob 4``)
    and ``language``.
    """
    try:
        typed = _request(request)
    except Take5Error as error:
        return _error(error, "en")
    language = _language(typed)
    rows = [str(row) for row in typed.get("rows", [])] if isinstance(typed.get("rows"), list) \
        else []
    plays, choices = str(typed.get("plays", "")), str(typed.get("choices", ""))
    played = _pairs(plays)
    chosen = {name: row - 1 for name, row in _pairs(choices).items()}

    def choose(choice: LowCard) -> int:
        if choice.player in chosen:
            return chosen[choice.player]
        return _no_row_given(choice)

    try:
        table = Table.of([_numbers(row) for row in rows])
        result = resolve_turn(table, played, choose)
    except Take5Error as error:
        return _error(error, language)
    order = placement_order(played)
    steps: list[dict[str, Any]] = [{
        "text": i18n.narrate(CardsRevealed(1, 1, order), language),
    }]
    for player, placement in result.placements:
        steps.append({
            "text": i18n.narrate(placement_event(player, placement), language),
            "rule": placement.rule,
            "title": i18n.explain(placement.rule, language).title,
        })
    pictures = turn_svgs(table, played, chosen)  # numbers in the pictures, words beside them
    for step, picture in zip(steps, pictures, strict=True):
        step["svg"] = picture
    return json.dumps({"steps": steps}, ensure_ascii=False)


def _no_row_given(choice: LowCard) -> int:
    """No row was typed for a low card: ``resolve_turn``'s own error says so."""
    return resolve_turn(choice.table, {choice.player: choice.card}).placements[0][1].row


def example_inputs(rule_id: str) -> dict[str, Any]:
    """The worked example the "try a turn" form of *rule_id*'s page starts from, as form texts."""
    from take5rules.conformance.examples import WORKED_EXAMPLES

    chosen = [item for item in WORKED_EXAMPLES if item.rule == rule_id] or list(WORKED_EXAMPLES)
    item = chosen[0]
    return {
        "rows": [" ".join(str(value) for value in row) for row in item.rows],
        "plays": ", ".join(f"{player} {card}" for player, card in item.plays),
        "choices": ", ".join(f"{player} {row + 1}" for player, row in item.choices.items()),
    }
