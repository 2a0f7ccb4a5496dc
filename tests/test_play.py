"""The Play page's Python side (``docs/play/take5play.py``), in CPython.

The page runs the same module in Pyodide (``test_docs_browser.py`` plays it there); here its
logic is checked directly: a game answered from the page is the engine's own game, the reader
sees only their own hand, an illegal answer is refused without changing the game, every
placement names the rule the rulebook gives it, the worked examples run, and a typed turn is
resolved as the founding texts resolve it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulebook import heads
from take5rules import text as i18n
from take5rules.events import GameOver, LowCardTaken, RoundStarted, SixthCardTaken
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import (
    CautiousPlayer,
    LowestCardPlayer,
    RandomPlayer,
)
from take5rules.registry import all_rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "play"))
import take5play

#: The rulebook's placement rules, by what happens to the card (rules 2 to 4 of the booklet).
RULE_OF_KIND = {
    "card-placed": "table.least-difference",
    "sixth-card-taken": "table.sixth-card",
    "low-card-taken": "table.low-card",
}


def start(seats: list[list[str]], *, variant: str = "standard", threshold: int = 66,
          seed: int = 3, language: str = "en") -> dict[str, Any]:
    state: dict[str, Any] = json.loads(take5play.new_game(json.dumps({
        "language": language, "seats": seats, "variant": variant, "threshold": threshold,
        "seed": seed,
    })))
    return state


def lowest_answer(state: dict[str, Any]) -> int:
    """What LowestCardPlayer would answer: its lowest card, the cheapest row, the lowest pick."""
    if state["phase"] == "card":
        return int(min(state["hand"]))
    if state["phase"] == "draft":
        return int(min(face["card"] for face in state["pool"]))
    assert take5play.GAME is not None and take5play.GAME.waiting is not None
    view = take5play.GAME.waiting.view
    return LowestCardPlayer().choose_row(view)  # type: ignore[arg-type]


def play_out(state: dict[str, Any]) -> tuple[dict[str, Any], int]:
    answers = 0
    while state["phase"] != "over":
        state = json.loads(take5play.answer(lowest_answer(state)))
        assert "error" not in state, state
        answers += 1
        assert answers < 500
    return state, answers


@pytest.mark.parametrize("variant", ["standard", "tactics", "logic", "tournament"])
def test_a_game_answered_from_the_page_is_the_engines_own_game(variant: str) -> None:
    seats = [["ana", "page"], ["bob", "cautious"], ["cyd", "random"]]
    state, answers = play_out(start(seats, variant=variant, seed=11))
    from take5rules.variants import Rules, Variant

    rules = Rules(Variant.parse(variant))
    over = list(play_game({"ana": LowestCardPlayer(), "bob": CautiousPlayer(),
                           "cyd": RandomPlayer(11 * 31 + 2)}, rules, 11))[-1]
    assert isinstance(over, GameOver)
    assert dict(state["totals"]) == dict(over.totals)
    assert state["winners"] == list(over.winners)
    assert answers >= 10  # at least a round of cards was asked for
    assert state["log"][-1]["text"] == i18n.narrate(over, "en")


def test_the_reader_sees_only_their_own_hand() -> None:
    state = start([["ana", "page"], ["bob", "cautious"], ["cyd", "lowest"]])
    dealt = next(event for event in play_game(
        {"ana": LowestCardPlayer(), "bob": CautiousPlayer(), "cyd": LowestCardPlayer()}, seed=3)
        if isinstance(event, RoundStarted))
    told = next(entry["text"] for entry in state["log"] if entry["kind"] == "round-started")
    assert state["hand"] == sorted(dealt.hands["ana"])
    for card in dealt.hands["bob"]:
        assert f" {card}," not in told and f" {card}." not in told
    assert "ana" in told
    assert "bob" not in told


def test_an_illegal_answer_is_refused_and_the_game_is_unchanged() -> None:
    state = start([["ana", "page"], ["bob", "random"]], language="it")
    not_held = next(card for card in range(1, 105) if card not in state["hand"])
    refused = json.loads(take5play.answer(not_held))
    assert "turn.reveal" in refused["error"]
    assert "regola" in refused["error"]  # in the page's language
    assert json.loads(take5play.answer(state["hand"][0]))["log"][:len(state["log"])] == \
        state["log"]


def test_every_placement_names_the_rule_of_its_kind() -> None:
    state, _ = play_out(start([["ana", "page"], ["bob", "cautious"], ["cyd", "random"],
                               ["dan", "random"]], seed=5, language="bg"))
    placements = [entry for entry in state["log"] if entry["kind"] in RULE_OF_KIND]
    assert {entry["kind"] for entry in placements} == set(RULE_OF_KIND)
    for entry in placements:
        assert entry["rule"] == RULE_OF_KIND[entry["kind"]]
        assert entry["title"] == i18n.explain(entry["rule"], "bg").title


def test_a_game_of_built_in_players_only_plays_to_the_end() -> None:
    state = start([["bob", "cautious"], ["cyd", "random"]], threshold=30)
    assert state["phase"] == "over"
    assert max(total for _, total in state["totals"]) >= 30


def test_a_draft_variant_asks_the_page_seat_for_its_picks() -> None:
    state = start([["ana", "page"], ["bob", "lowest"]], variant="logic")
    assert state["phase"] == "draft"
    assert [face["card"] for face in state["pool"]] == list(range(1, 2 * 10 + 4 + 1))
    assert state["pool"][54 % len(state["pool"])]["heads"] >= 1


@pytest.mark.parametrize(
    ("seats", "threshold", "rule"),
    [
        ([["ana", "page"]], 66, "setup.players"),
        ([["ana", "page"], ["ana", "random"]], 66, "setup.players"),
        ([["ana", "page"], ["bob", "random"]], 0, "variants.threshold"),
        ([["ana", "page"], ["bob", "nobody"]], 66, "argument"),
    ],
)
def test_a_game_that_cannot_start_says_why(seats: list[list[str]], threshold: int,
                                           rule: str) -> None:
    refused = start(seats, threshold=threshold, language="fr")
    assert f"[règle {rule}]" in refused["error"] or f"[{rule}]" in refused["error"] or \
        rule in refused["error"]


@pytest.mark.parametrize("rule", [rule.id for rule in all_rules()])
def test_every_worked_example_runs_as_written(rule: str) -> None:
    ran = json.loads(take5play.run_example(rule))
    assert ran["examples"], rule
    assert all(example["ok"] for example in ran["examples"]), ran


def test_a_worked_example_that_no_longer_holds_is_reported(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from take5rules import table

    monkeypatch.setattr(table.sixth_card, "__doc__", ">>> ROW_LIMIT\n6\n>>> 1 // 0\n0\n")
    ran = json.loads(take5play.run_example("table.sixth-card"))
    assert [example["ok"] for example in ran["examples"]] == [False, False]
    assert ran["examples"][0]["got"] == "5\n"
    assert ran["examples"][1]["got"].splitlines()[-1].startswith("ZeroDivisionError: ")


def test_a_typed_turn_is_resolved_as_the_founding_texts_resolve_it() -> None:
    # The founding texts' low card: rows ending in 12, 24, 70 and 96; ana plays 17, bob 2 and
    # takes the row holding only 96; the 17 then goes after the 12.
    turn = json.loads(take5play.try_turn(json.dumps({
        "rows": ["3 12", "24", "58, 61, 70", "96"], "plays": "ana 17, bob 2", "choices": "bob 4",
        "language": "eo",
    })))
    steps = turn["steps"]
    assert len(steps) == 3
    assert [step.get("rule") for step in steps] == [None, "table.low-card",
                                                    "table.least-difference"]
    assert 'data-card="2"' in steps[1]["svg"]
    assert "bob" in steps[1]["text"]
    assert steps[2]["title"] == i18n.explain("table.least-difference", "eo").title


@pytest.mark.parametrize(
    ("rows", "plays", "choices", "rule"),
    [
        (["3 12", "24", "58 61 70", "96"], "ana 17, bob 2", "", "table.low-card"),
        (["3 12", "24", "58 61 70", "96"], "ana 105", "", "cards.deck"),
        (["3 12", "24", "58 61 70"], "ana 17", "", "setup.deal"),
        (["3 12", "24", "58 61 70", "96"], "", "", "setup.players"),
        (["3 12", "24", "58 61 70", "96"], "bob 2", "bob 9", "table.low-card"),
    ],
)
def test_a_typed_turn_that_breaks_a_rule_names_it(rows: list[str], plays: str, choices: str,
                                                  rule: str) -> None:
    turn = json.loads(take5play.try_turn(json.dumps({"rows": rows, "plays": plays,
                                                     "choices": choices, "language": "en"})))
    assert f"[rule {rule}]" in turn["error"], turn


def test_the_try_form_starts_from_the_rules_worked_example() -> None:
    inputs = take5play.example_inputs("table.low-card")
    assert inputs == {"rows": ["3 12", "24", "58 61 70", "96"], "plays": "ana 17, bob 2",
                      "choices": "bob 4"}


def test_the_page_offers_every_built_in_player() -> None:
    state = start([["ana", "page"], *([name, name] for name in BUILTIN_PLAYERS)])
    assert [name for name, _ in state["totals"]] == ["ana", *BUILTIN_PLAYERS]


def test_without_npm_the_docs_build_without_the_runtime_and_say_why(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
    import play_bundle

    monkeypatch.setattr(play_bundle, "NODE_PYODIDE", tmp_path / "node_modules" / "pyodide")
    monkeypatch.setattr("shutil.which", lambda name: None)
    reason = play_bundle.pyodide_folder(play_bundle.pins()["pyodide"])
    assert isinstance(reason, str)
    assert "npm is missing" in reason


def test_a_file_that_differs_from_its_pin_fails_the_build(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
    import play_bundle
    from mkdocs.exceptions import PluginError

    tampered = tmp_path / "pyodide.asm.wasm"
    tampered.write_bytes(b"not the pinned file")
    pinned = play_bundle.pins()["pyodide"]["files"]["pyodide.asm.wasm"]
    with pytest.raises(PluginError, match="sha256"):
        play_bundle.checked(tampered, pinned)


# --- issue 27: the threshold, the kinds, what is taken this round ------------------------------

LANGUAGES = ("en", "fr", "bg", "it", "eo")
DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_page_refuses_a_threshold_over_1000_as_play_and_mcp_do() -> None:
    # `take5rules play --threshold 5000` and MCP's new_game say exactly this (issue 27: the page
    # accepted 5,000, a game of hours in the reader's browser).
    refused = start([["ana", "page"], ["bob", "random"]], threshold=5000)
    assert refused == {"error": "threshold 5000: take5rules plays to at most 1000 bull heads, "
                                "so that every game ends within 500 rounds "
                                "[rule variants.threshold]"}
    assert "error" in start([["ana", "page"], ["bob", "random"]], threshold=1001)
    assert start([["ana", "page"], ["bob", "random"]], threshold=1000)["phase"] == "card"


def _front_matter(language: str) -> dict[str, Any]:
    import yaml  # type: ignore[import-untyped]

    text = (DOCS / language / "play.md").read_text(encoding="utf-8")
    _, matter, body = text.split("---\n", 2)
    loaded: dict[str, Any] = yaml.safe_load(matter)
    loaded["body"] = body
    return loaded


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_names_every_built_in_kind_it_offers_as_built_in(language: str) -> None:
    # Issue 27: the text named three kinds and the list offered seven, four without the label.
    matter = _front_matter(language)
    kinds = matter["kinds"]
    built_in = {"en": "(built in)", "fr": "(fourni)", "bg": "(вграден)", "it": "(integrato)",
                "eo": "(enkonstruita)"}[language]
    for kind in ("random", "lowest", "cautious", "greedy", "montecarlo", "ismcts", "best"):
        assert kinds[kind] == f"{kind} {built_in}", (language, kind)
        assert f"`{kind}`" in matter["body"], (language, kind)
    assert set(kinds) == {"page", *BUILTIN_PLAYERS}


@pytest.mark.parametrize(("language", "words"), [
    ("en", "this round"), ("fr", "cette manche"), ("bg", "този рунд"), ("it", "questa manche"),
    ("eo", "ĉi tiu raŭndo"),
])
def test_the_page_labels_the_bull_heads_taken_this_round(language: str, words: str) -> None:
    matter = _front_matter(language)
    assert words in matter["labels"]["taken"]
    assert words in matter["body"]


def test_the_page_shows_the_bull_heads_each_seat_has_taken_this_round() -> None:
    # Issue 27: the totals stay at 0 until a round is scored; the page shows what each seat has
    # taken so far, as the terminal game does. Checked against the engine's own game, answered
    # as the page was, at every question of the game.
    seats = [["ana", "page"], ["bob", "cautious"], ["cyd", "random"]]
    state = start(seats, seed=11)
    events = list(play_game({"ana": LowestCardPlayer(), "bob": CautiousPlayer(),
                             "cyd": RandomPlayer(11 * 31 + 2)}, seed=11))
    seen_taken = False
    while True:
        so_far = events[:len(state["log"])]  # one entry of the log for each event
        taken = {"ana": 0, "bob": 0, "cyd": 0}
        for event in so_far:
            if event.kind in ("round-started", "round-scored"):
                taken = {"ana": 0, "bob": 0, "cyd": 0}
            elif isinstance(event, SixthCardTaken | LowCardTaken):
                taken[event.player] += sum(heads(card) for card in event.taken)
        assert state["taken"] == [[name, heads] for name, heads in taken.items()]
        seen_taken = seen_taken or any(taken.values())
        if state["phase"] == "over":
            break
        state = json.loads(take5play.answer(lowest_answer(state)))
    assert seen_taken, "no card was taken in the middle of a round: the test proved nothing"
