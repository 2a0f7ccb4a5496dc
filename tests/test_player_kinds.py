"""``policy`` is a player kind everywhere a kind is accepted (``take5rules.agents.player_kinds``).

The learned policy lives in the agents' layer, so the playing layer's table of kinds cannot
name it; every front end above playing takes its kinds from ``agents.player_kinds``: ``play
--players``, ``take5rules player`` (``tests/test_player_cmd.py`` serves it over the protocol),
the MCP server's opponents and the Gymnasium env's. Each test here counts the policy's own
decisions, so that a front end seating another player under the name ``policy`` fails; none
depends on which moves the policy makes (its weights change). Without numpy, ``policy`` is the
one-line error naming the extra, and every other kind keeps working.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules.agents.player_kinds import (
    PLAYER_KINDS,
    POLICY,
    SEEDED_KINDS,
    checked_kind,
    new_player,
)
from take5rules.cli.main import main
from take5rules.cli.player_cmd import player_factory
from take5rules.errors import Take5Error
from take5rules.playing.players import CautiousPlayer, RandomPlayer

#: The kinds, in the order every front end lists them: the seven built in, then the policy.
KINDS = ["random", "lowest", "cautious", "greedy", "montecarlo", "ismcts", "best", "policy"]


@pytest.fixture
def policy_cards(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cards the learned policy chose, in order, wherever it was seated."""
    pytest.importorskip("numpy", reason="the policy needs numpy (take5rules[batch])")
    from take5rules.agents.policy import PolicyPlayer

    chosen: list[int] = []
    choose = PolicyPlayer.choose_card

    def counted(self: PolicyPlayer, view: Any) -> int:
        card = choose(self, view)
        chosen.append(card)
        return card

    monkeypatch.setattr(PolicyPlayer, "choose_card", counted)
    return chosen


@pytest.fixture
def without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import numpy`` fails from here on, as on a plain install (the policy's module too)."""
    monkeypatch.setitem(sys.modules, "numpy", None)
    monkeypatch.delitem(sys.modules, "take5rules.agents.policy", raising=False)


def test_the_kinds_are_the_built_in_ones_then_the_policy_which_takes_no_seed() -> None:
    assert list(PLAYER_KINDS) == KINDS and POLICY == "policy"
    assert sorted(SEEDED_KINDS) == ["best", "ismcts", "montecarlo", "random"]
    assert repr(new_player("ismcts", 5)).endswith("seed=5)")
    assert repr(new_player("ismcts")).endswith("seed=0)")  # the same game every time
    assert isinstance(new_player("cautious", 5), CautiousPlayer)
    with pytest.raises(Take5Error) as error:
        checked_kind("clever")
    assert error.value.rule == "argument"
    assert error.value.message.endswith("choose one of " + ", ".join(KINDS))


def test_new_player_makes_the_shipped_policy(policy_cards: list[int]) -> None:
    from take5rules.agents.policy import PolicyPlayer, shipped_policy

    player = new_player("policy", 3)  # no seed: the policy is deterministic
    assert isinstance(player, PolicyPlayer) and player.policy is shipped_policy()
    assert checked_kind("policy") == "policy"


def test_play_with_a_policy_seat_plays_a_whole_game(policy_cards: list[int]) -> None:
    result = CliRunner().invoke(main, ["play", "--json", "--seed", "3", "--players",
                                       "ana=cautious,bot=policy,cyd=lowest"])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    assert events[-1]["kind"] == "game-over"
    assert set(events[-1]["totals"]) == {"ana", "bot", "cyd"}
    revealed = [event for event in events if event["kind"] == "cards-revealed"]
    # the policy chose bot's card at every turn, and that card is the one revealed for bot
    assert len(policy_cards) == len(revealed) > 0
    assert policy_cards == [dict(map(tuple, event["plays"]))["bot"] for event in revealed]


def test_play_lists_the_policy_among_the_kinds_it_refuses() -> None:
    result = CliRunner().invoke(main, ["play", "--lang", "en", "--players", "a=clever,b=lowest"])
    assert result.exit_code == 2
    assert ("choose one of random, lowest, cautious, greedy, montecarlo, ismcts, best, policy, "
            "human, cmd:COMMAND") in result.output


def test_player_factory_makes_a_fresh_policy_for_each_game(policy_cards: list[int]) -> None:
    from take5rules.agents.policy import PolicyPlayer

    make = player_factory("policy", 9)
    first, second = make(1), make(None)
    assert isinstance(first, PolicyPlayer) and isinstance(second, PolicyPlayer)
    assert first is not second


def test_the_gymnasium_env_seats_a_policy_opponent(policy_cards: list[int]) -> None:
    pytest.importorskip("gymnasium", reason="the env needs gymnasium (take5rules[env])")
    import numpy as np

    from take5rules.agents.gymnasium_env import Take5GymEnv
    from take5rules.events import CardsRevealed, GameOver

    env = Take5GymEnv(["policy", "cautious"])
    observation, _ = env.reset(seed=4)
    done = False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, _, done, _, info = env.step(action)
    assert set(info["totals"]) == {"agent", "policy", "cautious"}
    assert isinstance(env.events[-1], GameOver)
    revealed = [event for event in env.events if isinstance(event, CardsRevealed)]
    assert len(policy_cards) == len(revealed) > 0
    assert policy_cards == [dict(event.plays)["policy"] for event in revealed]


def _mcp_call(calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The results of *calls* to the MCP server, in process, through the SDK's client."""
    pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")
    from mcp import Client

    from take5rules.agents.mcp_server import build_server

    results: list[Any] = []

    async def session() -> None:
        async with Client(build_server()) as client:
            for name, arguments in calls:
                results.append(await client.call_tool(name, arguments))

    asyncio.run(asyncio.wait_for(session(), timeout=120))
    return results


def test_mcp_new_game_seats_a_policy_opponent(policy_cards: list[int]) -> None:
    pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")
    from mcp import Client

    from take5rules.agents.mcp_server import build_server

    reports: list[dict[str, Any]] = []
    cards_played = 0

    async def session() -> None:
        nonlocal cards_played
        async with Client(build_server()) as client:
            listed = await client.list_tools()
            new_game = next(tool for tool in listed.tools if tool.name == "new_game")
            assert new_game.input_schema["properties"]["opponents"]["items"]["enum"] == KINDS
            result = await client.call_tool("new_game", {"opponents": ["policy", "cautious"],
                                                         "seed": 5, "threshold": 1})
            assert not result.is_error, result.content
            report = result.structured_content
            while report["phase"] != "over":  # the seat plays its lowest card, the first row
                game = report["game_id"]
                tool, value = {"card": ("play_card", {"card": min(report.get("hand") or [0])}),
                               "row": ("choose_row", {"row": 0}),
                               "draft": ("draft_card", {"card": min(report.get("pool") or [0])})
                               }[report["phase"]]
                cards_played += tool == "play_card"
                result = await client.call_tool(tool, {"game_id": game, **value})
                assert not result.is_error, result.content
                report = result.structured_content
                reports.append(report)

    asyncio.run(asyncio.wait_for(session(), timeout=120))
    assert reports[-1]["players"] == ["player", "policy", "cautious"]
    assert reports[-1]["winners"]
    # every player plays one card a turn: the policy chose as many cards as the seat played
    assert len(policy_cards) == cards_played > 0


def test_without_numpy_policy_is_one_line_and_every_other_kind_works(
        without_numpy: None) -> None:
    with pytest.raises(Take5Error) as error:
        new_player("policy")
    assert error.value.rule == "extra" and "take5rules[batch]" in error.value.message
    with pytest.raises(Take5Error) as error:
        player_factory("policy")  # before any game is served
    assert error.value.rule == "extra"
    assert isinstance(new_player("random", 1), RandomPlayer)
    assert player_factory("cautious")(None) is not None

    runner = CliRunner()
    refused = runner.invoke(main, ["play", "--lang", "en", "--players", "a=cautious,b=policy"])
    assert refused.exit_code == 2
    assert isinstance(refused.exception, SystemExit) and "Traceback" not in refused.output
    lines = refused.output.strip().splitlines()
    assert len(lines) == 1 and "numpy" in lines[0] and "take5rules[batch]" in lines[0], lines
    played = runner.invoke(main, ["play", "--json", "--players", "a=cautious,b=greedy"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.output.splitlines()[-1])["kind"] == "game-over"


def test_without_numpy_mcp_new_game_with_a_policy_opponent_is_a_tool_error(
        without_numpy: None) -> None:
    refused, played = _mcp_call([("new_game", {"opponents": ["policy"]}),
                                 ("new_game", {"opponents": ["lowest"]})])
    assert refused.is_error
    text = refused.content[0].text
    assert "numpy" in text and "take5rules[batch]" in text and "Traceback" not in text
    assert not played.is_error and played.structured_content["players"] == ["player", "lowest"]
