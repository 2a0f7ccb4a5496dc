"""The command line's contract, one table for every command (issue 18 section 4).

Exit status 0 is success, 1 a rule broken (or a disagreement), 2 a wrong command line, an
unreadable input or an output that cannot be written. Each row: the command, its stdin, its
exit status, and the first line it prints (on stdout for a success, on stderr otherwise).
Then the points of the newcomer's first day around it: ``--players`` entries, "did you mean",
click's frame in the language asked, wrapping to the terminal's width, the output paths of
issue 17 section 7, a missing extra.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from take5rules.cli.main import COMMANDS

TURN = ('{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]], '
        '"choices": {"bob": 3}}')
REPLY = '{"rows": [[3, 12, 17], [24], [58, 61, 70], [2]], "taken": {"bob": [96]}, "chosen": {"bob": 3}}'  # noqa: E501
START = "A game begins with ana, bob, cyd, and dan: the standard game, ending when a total reaches 66."  # noqa: E501
TAKE5RULES = f"{sys.executable} -m take5rules"

#: (arguments, stdin, exit status, first line). ``{log}`` is a valid game log; a first line
#: written ``re:...`` is a regular expression.
TABLE: list[tuple[str, str, int, str]] = [
    ("play --seed 3", "", 0, START),
    ("play --players cautious,random", "", 0,
     "A game begins with cautious and random: the standard game, ending when a total reaches "
     "66."),
    ("play --players ana:random", "", 2,
     "unknown player kind 'ana:random'; choose one of random, lowest, cautious, greedy, "
     "montecarlo, ismcts, best, policy, human, cmd:COMMAND [argument]"),
    ("play --players ana", "", 2,
     "unknown player kind 'ana'; choose one of random, lowest, cautious, greedy, montecarlo, "
     "ismcts, best, policy, human, cmd:COMMAND [argument]"),
    ("play --players ana=lowest,ana=random", "", 1,
     "player name 'ana' is used twice; every player needs a distinct name [rule setup.players]"),
    ("play --threshold 0", "", 1,
     "threshold 0: the agreed threshold is a whole number of bull heads, at least 1 "
     "[rule variants.threshold]"),
    ("play --log /nonexistent/x.json", "", 2,
     "cannot write /nonexistent/x.json: no such file or directory [log]"),
    ("play --log " + "x" * 300 + ".json", "", 2,
     "cannot write " + "x" * 300 + ".json: the file name is too long [log]"),
    ("play --players me=human,bob=cautious", "", 2,
     "round 1, turn 1, player 'me': end of input: me had a card or a row to choose, so the game "
     "stops here [input]"),
    ("play --nosuch", "", 2, "Usage: take5rules play [OPTIONS]"),
    ("rules --lang it", "", 0, "cards.deck — Il mazzo"),
    ("explain table.sixth-card --lang de", "", 0, "table.sixth-card — Die sechste Karte"),
    ("explain table.sixth", "", 2,
     "unknown rule id 'table.sixth'; did you mean table.sixth-card or table.ascending?"),
    ("explain nothing.close", "", 2,
     "unknown rule id 'nothing.close'; see `take5rules ids` for the list"),
    ("discrepancies", "", 0,
     "end-threshold — Does the game end at 66 points or only above 66?"),
    ("ids", "", 0, "cards.deck"),
    ("referee", TURN + "\n", 0, REPLY),
    ("referee", "", 0, ""),  # end of input ends it
    ("validate {log}", "", 0, "{log}: valid, a finished game"),
    ("validate -", "{}", 2,
     "-: not a take5-log: a take5-log is a JSON object whose 'format' is 'take5-log' [log]"),
    ("validate nosuch.json", "", 2,
     "nosuch.json: cannot read the file: no such file or directory [log]"),
    (f"conform --cmd '{TAKE5RULES} referee' --cases 5", "", 0,
     f"{TAKE5RULES} referee agrees with take5rules on 7 worked examples and 5 generated turns "
     "(seed 0)."),
    ("conform --cmd false --cases 5", "", 2,
     "false is broken: answering request 1, it exited with status 1."),
    ("vectors --out my-vectors", "", 0, r"re:\d+ files written under my-vectors"),
    ("vectors --out /proc/x", "", 2, "cannot write /proc/x: no such file or directory"),
    ("arena cautious random --games 2", "", 0,
     "2 games: the standard game, threshold 66, seed 0"),
    ("arena cautious nosuch:Thing", "", 2,
     "player 'nosuch:Thing': cannot load 'nosuch:Thing': ModuleNotFoundError: No module named "
     "'nosuch' [argument]"),
    ("arena cautious sys:exit", "", 2,
     "player 'sys:exit': cannot load 'sys:exit': SystemExit [argument]"),
    ("replay {log} --lang bg", "", 0,
     "Започва стандартната игра с ana, bob, cyd и dan; играта ще свърши, когато сборът на "
     "някой играч достигне 66."),
    ("replay nosuch.json", "", 2, "cannot read the file: no such file or directory [log]"),
    ("show {log} --out game.html", "", 0, "game.html written; turns drawn: 50"),
    ("show {log} --out /nonexistent/x.html", "", 2,
     "cannot write /nonexistent/x.html: no such file or directory [log]"),
    ("player cautious", '{"type": "hello", "protocol": 1, "table": "t"}\n', 0,
     '{"type":"hello","protocol":1,"name":"take5rules cautious","author":"take5rules",'
     '"variants":["standard","tactics","logic","tournament"]}'),
    ("player nosuch", "", 2,
     "unknown player kind 'nosuch'; choose one of random, lowest, cautious, greedy, "
     "montecarlo, ismcts, best, policy [argument]"),
    ("mcp", '{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n', 0,
     '{"jsonrpc":"2.0","id":1,"result":{}}'),
    ("mcp --bogus", "", 2, "Usage: take5rules mcp [OPTIONS]"),
    ("nosuch", "", 2, "Usage: take5rules [OPTIONS] COMMAND [ARGS]..."),
]

ENGLISH = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "COLUMNS": "200"}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("contract")
    subprocess.run([sys.executable, "-m", "take5rules", "play", "--seed", "3", "--log",
                    "game.json"], cwd=here, check=True, capture_output=True, env=ENGLISH)
    return here


def _run(command: str, stdin: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(f"{TAKE5RULES} {command}", shell=True, input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**ENGLISH, **env})


def test_the_table_names_every_command() -> None:
    assert {row[0].split()[0] for row in TABLE} >= set(COMMANDS)


@pytest.mark.parametrize(("command", "stdin", "status", "first"), TABLE,
                         ids=[row[0][:40] for row in TABLE])
def test_each_command_keeps_the_exit_status_contract(command: str, stdin: str, status: int,
                                                     first: str, workdir: Path) -> None:
    done = _run(command.replace("{log}", "game.json"), stdin, workdir)
    assert done.returncode == status, (done.stdout[-500:], done.stderr)
    assert "Traceback" not in done.stderr
    shown = done.stderr if (status and done.stderr) or not done.stdout else done.stdout
    expected = first.replace("{log}", "game.json")
    if expected.startswith("re:"):  # a count that grows with the suite
        assert re.fullmatch(expected[3:], shown.splitlines()[0]), shown
    else:
        assert shown.splitlines()[:1] == ([expected] if expected else [])


def test_a_pipe_closed_by_head_is_success(workdir: Path) -> None:
    # `take5rules play | head -1` once exited 1 (click's own handling of a broken pipe)
    done = subprocess.run(f"set -o pipefail; {TAKE5RULES} play --seed 3 | head -1", shell=True,
                          executable="/bin/bash", capture_output=True, text=True, cwd=workdir,
                          env=ENGLISH, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == START + "\n"
    assert done.stderr == ""


def test_a_file_name_the_output_cannot_encode_is_one_line(workdir: Path) -> None:
    # issue 17 section 7: a file name that is not UTF-8, printed under utf-8:strict
    name = os.fsdecode(b"\xff.json")
    (workdir / name).write_bytes((workdir / "game.json").read_bytes())
    for language, line in [("en", "cannot write the output: '\\udcff' cannot be written in the "
                                  "encoding utf-8"),
                           ("fr", "impossible d'écrire la sortie\u00a0: '\\udcff' ne peut pas "
                                  "s'écrire dans l'encodage utf-8")]:
        done = subprocess.run([sys.executable, "-m", "take5rules", "validate", name, "--lang",
                               language], cwd=workdir, capture_output=True, check=False,
                              timeout=120, env={**ENGLISH, "PYTHONIOENCODING": "utf-8:strict"})
        assert done.returncode == 2
        assert done.stderr.decode("utf-8") == line + "\n"


@pytest.mark.parametrize(("language", "frame"), [
    ("fr", "Erreur\u00a0: Valeur non valide pour '--threshold'\u00a0: 'x' n'est pas un integer "
           "valide."),  # the type's name is click's own word
    ("de", "Fehler: Ungültiger Wert für '--threshold': 'x' ist kein gültiger integer."),
    ("bg", "Грешка: Невалидна стойност за '--threshold': 'x' не е валидно integer."),
])
def test_clicks_frame_speaks_the_language_asked(language: str, frame: str,
                                               workdir: Path) -> None:
    done = _run(f"arena cautious random --threshold x --lang {language}", "", workdir)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == frame
    usage = {"fr": "Utilisation\u00a0:", "de": "Aufruf:", "bg": "Употреба:"}[language]
    assert done.stderr.startswith(usage + " take5rules arena")


def test_the_help_frame_is_translated_too() -> None:
    done = subprocess.run([sys.executable, "-m", "take5rules", "arena", "--help", "--lang",
                           "eo"], capture_output=True, text=True, check=False, timeout=60,
                          env=ENGLISH)
    assert done.returncode == 0
    assert done.stdout.startswith("Uzo: take5rules arena")
    assert "\nOpcioj:\n" in done.stdout


@pytest.mark.parametrize("columns", ["40", "60"])
def test_prose_wraps_to_columns(columns: str, workdir: Path) -> None:
    for command in ("rules", "play --seed 3", "explain table.low-card"):
        done = _run(command, "", workdir, COLUMNS=columns)
        assert done.returncode == 0
        # only a word longer than the line (a function's dotted name) may stick out
        assert [line for line in done.stdout.splitlines() if len(line) > int(columns)
                and " " in line.strip().split(": ", 1)[-1]] == []
        assert len(done.stdout.splitlines()) > 10


def test_without_a_terminal_play_keeps_whole_lines(workdir: Path) -> None:
    env = {key: value for key, value in ENGLISH.items() if key != "COLUMNS"}
    done = subprocess.run([sys.executable, "-m", "take5rules", "play", "--seed", "3"],
                          cwd=workdir, capture_output=True, text=True, check=False, env=env,
                          timeout=120)
    assert done.stdout.splitlines()[0] == START  # longer than 80, not cut


BLOCK = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("mcp", "numpy", "gymnasium", "pettingzoo"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Refuse())
"""


def test_a_missing_extra_is_named_by_the_module_that_needs_it() -> None:
    server = subprocess.run(
        [sys.executable, "-c", BLOCK + "import runpy\n"
         "runpy._run_module_as_main('take5rules.agents.mcp_server')"],
        capture_output=True, text=True, check=False, timeout=60, env=ENGLISH)
    assert server.returncode == 2
    assert server.stderr == ("take5rules.agents.mcp_server needs the optional package mcp; "
                             "install it "
                             "with: pip install 'take5rules[mcp]'\n")
    env = subprocess.run(
        [sys.executable, "-c", BLOCK + "try:\n    import take5rules.agents.pettingzoo_env\n"
         "except ImportError as error:\n    print(error)\n"],
        capture_output=True, text=True, check=False, timeout=60, env=ENGLISH)
    assert env.stdout == ("take5rules.agents.pettingzoo_env needs the optional package numpy; "
                          "install it with: "
                          "pip install 'take5rules[env]' [extra]\n")


@pytest.mark.parametrize("language", ["en", "fr", "bg", "it", "eo"])
def test_the_docs_cli_page_states_the_readmes_exit_statuses(language: str) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / language / "reference"
            / "cli.md").read_text(encoding="utf-8")
    rows = [line.split("|")[1].strip() for line in page.splitlines()
            if re.match(r"^\| [012] \|", line)]
    assert rows == ["0", "1", "2"]
    assert "replay" in page and "show" in page and "human" in page
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "exit status 0 means success, 1 a rule\nbroken (or a disagreement), 2 a wrong" in readme


#: Errors whose first argument is a failure's kind, not an id: the two public ones carry a fixed
#: id (the test below checks it is one of NOT_RULES); conform --player's own stays inside it.
_KIND_FIRST = frozenset({"ChannelError", "PlayerProgramError", "_ViolationError"})


def _error_ids() -> set[tuple[str, str]]:
    """Every (module, id) where the source builds an error with a literal id: ``XError("id", ...``
    or a subclass's ``super().__init__("id", ...``."""
    import ast

    source = Path(__file__).resolve().parent.parent / "src" / "take5rules"
    found = set()
    for path in source.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _KIND_FIRST:
                continue
            first = node.args[0]
            if ((name.endswith("Error") or name == "__init__")
                    and isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and re.fullmatch(r"[a-z0-9.-]+", first.value)):
                found.add((path.name, first.value))
    return found


def test_the_errors_that_take_a_kind_first_carry_an_id_that_says_it_is_no_rule() -> None:
    from take5rules.errors import NOT_RULES
    from take5rules.playing.channel import ChannelError
    from take5rules.playing.program_player import PlayerProgramError

    assert ChannelError("exited", "gone").rule in NOT_RULES
    assert PlayerProgramError("exited", "gone").rule in NOT_RULES


def test_every_error_id_is_a_rule_or_an_id_that_says_it_is_none() -> None:
    from take5rules.errors import NOT_RULES
    from take5rules.registry import RULE_ORDER

    ids = _error_ids()
    # the scan sees the ids users met outside NOT_RULES (issue 27): it can fail
    assert {"input", "player", "extra", "argument"} <= {rule for _, rule in ids}
    stray = sorted((module, rule) for module, rule in ids
                   if rule not in RULE_ORDER and rule not in NOT_RULES)
    assert stray == []


@pytest.mark.parametrize(("rule", "shown"), [
    ("input", "[input]"), ("argument", "[argument]"), ("log", "[log]"),
    ("turn.reveal", "[rule turn.reveal]"),
])
def test_an_id_that_is_no_rule_is_not_called_a_rule(rule: str, shown: str) -> None:
    from take5rules.errors import MalformedInputError
    from take5rules.text import error_message

    assert error_message(MalformedInputError(rule, "x"), "en") == f"x {shown}"
