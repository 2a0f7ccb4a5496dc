"""Every command, on a full disk, a closed pipe or a closed stdout: one line or quiet, never a
traceback; and ``play``'s checks of its seats and threshold."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
REQUEST = '{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]], ' \
          '"choices": {"bob": 3}}\n'
ENGLISH = {**os.environ, "LC_ALL": "C", "LANG": "C", "LANGUAGE": ""}


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("log") / "game.json"
    result = CliRunner().invoke(main, ["play", "--seed", "2", "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _commands(game_log: Path, out: Path) -> Iterator[tuple[str, list[str], str]]:
    """Every command, as (name, arguments, standard input), each writing something to stdout."""
    yield "help", ["--help"], ""
    yield "play", ["play", "--lang", "en"], ""
    yield "play --json", ["play", "--json"], ""
    yield "rules", ["rules", "--lang", "fr"], ""
    yield "explain", ["explain", "table.sixth-card", "--lang", "bg"], ""
    yield "discrepancies", ["discrepancies", "--json"], ""
    yield "ids", ["ids"], ""
    yield "referee", ["referee"], REQUEST * 3
    yield "validate", ["validate", str(game_log)], ""
    yield "vectors", ["vectors", "--out", str(out)], ""
    yield "conform", ["conform", "--cmd", f"{sys.executable} -m take5rules referee",
                      "--cases", "2"], ""


def _run(args: list[str], stdin: str, stdout: int | None, before: str = "",
         close_stdout: bool = False) -> subprocess.CompletedProcess[str]:
    code = f"{before}from take5rules.cli.main import main; main(prog_name='take5rules')"
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, check=False,
                          env=ENGLISH, preexec_fn=(lambda: os.close(1)) if close_stdout else None)


CASES = [name for name, _, _ in _commands(Path(), Path())]


#: What a command says when it cannot write, in the language of its --lang (the words of the
#: operating system translated too: os.strerror is English whatever the language).
CANNOT_WRITE = {
    "en": "cannot write the output: {reason}\n",
    "fr": "impossible d'écrire la sortie\u00a0: {reason}\n",
    "bg": "изходът не може да се запише: {reason}\n",
}
NO_SPACE = {"en": "no space left on the device", "fr": "plus de place sur le périphérique",
            "bg": "няма свободно място на устройството"}
CLOSED = {"en": "the file is closed", "fr": "le fichier est fermé", "bg": "файлът е затворен"}


def _language(args: list[str]) -> str:
    return args[args.index("--lang") + 1] if "--lang" in args else "en"


def _case(name: str, game_log: Path, out: Path) -> tuple[list[str], str]:
    return next((args, stdin) for case, args, stdin in _commands(game_log, out) if case == name)


@pytest.mark.parametrize("name", CASES)
def test_a_full_disk_is_one_line_and_exit_status_2(name: str, game_log: Path,
                                                   tmp_path: Path) -> None:
    args, stdin = _case(name, game_log, tmp_path / "vectors")
    with open("/dev/full", "w") as full:
        done = _run(args, stdin, full.fileno())
    assert done.returncode == 2, done.stderr
    language = _language(args)
    assert done.stderr == CANNOT_WRITE[language].format(reason=NO_SPACE[language])


@pytest.mark.parametrize("name", CASES)
def test_a_closed_pipe_ends_quietly(name: str, game_log: Path, tmp_path: Path) -> None:
    args, stdin = _case(name, game_log, tmp_path / "vectors")
    reader, writer = os.pipe()
    os.close(reader)  # nobody will ever read: the first write fails with EPIPE
    try:
        done = _run(args, stdin, writer)
    finally:
        os.close(writer)
    assert done.returncode in (0, 1), done.stderr
    assert done.stderr == ""


@pytest.mark.parametrize("name", CASES)
def test_a_closed_stdout_is_one_line_and_exit_status_2(name: str, game_log: Path,
                                                       tmp_path: Path) -> None:
    # `take5rules ... >&-`: there is no standard output at all (Python's sys.stdout is None);
    # the output would be lost, so the command says so (issue 17 section 7)
    args, stdin = _case(name, game_log, tmp_path / "vectors")
    done = _run(args, stdin, None, close_stdout=True)
    assert done.returncode == 2, done.stderr
    language = _language(args)
    assert done.stderr == CANNOT_WRITE[language].format(reason=CLOSED[language])


@pytest.mark.parametrize("name", CASES)
def test_a_stdout_closed_while_running_is_one_line(name: str, game_log: Path,
                                                   tmp_path: Path) -> None:
    args, stdin = _case(name, game_log, tmp_path / "vectors")
    done = _run(args, stdin, subprocess.DEVNULL, before="import os; os.close(1); ")
    assert done.returncode == 2, done.stderr
    language = _language(args)
    assert done.stderr == CANNOT_WRITE[language].format(reason=CLOSED[language])


def test_play_refuses_a_seat_named_twice() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "ana=lowest,ana=random,bob=lowest",
                                       "--lang", "en"])
    assert result.exit_code == 1
    assert result.output == ("player name 'ana' is used twice; every player needs a distinct "
                             "name [rule setup.players]\n")


def test_play_refuses_an_empty_seat_name() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "ana=lowest,=random", "--lang", "en"])
    assert result.exit_code == 1
    assert "[rule setup.players]" in result.output


@pytest.mark.parametrize("threshold", ["1001", str(10**30)])
def test_play_refuses_a_threshold_over_1000(threshold: str) -> None:
    result = CliRunner().invoke(main, ["play", "--threshold", threshold, "--lang", "en"])
    assert result.exit_code == 1
    assert result.output == (f"threshold {threshold}: take5rules plays to at most 1000 "
                             "bull heads, so that every game ends within 500 rounds "
                             "[rule variants.threshold]\n")


def test_play_plays_to_the_highest_threshold() -> None:
    # Two players at the bound: at least 10 * 2 - 16 = 4 cards leave the table each round.
    result = CliRunner().invoke(main, ["play", "--threshold", "1000", "--players", "lowest,random",
                                       "--json", "--seed", "4"])
    assert result.exit_code == 0, result.output
    rounds = result.output.count('"kind": "round-started"')
    assert 1 <= rounds <= 500
    assert '"kind": "game-over"' in result.output.splitlines()[-1]


@pytest.mark.parametrize("timeout", ["nan", "inf", "-inf", "0", "-1", "3601", "1e400"])
def test_conform_refuses_a_timeout_that_is_not_a_number_of_seconds(timeout: str) -> None:
    result = CliRunner().invoke(main, ["conform", "--cmd", "true", "--timeout", timeout,
                                       "--lang", "en"])
    assert result.exit_code == 2
    assert "the timeout is a number of seconds, more than 0 and at most 3600" in result.output
    assert "Traceback" not in result.output


MISSING = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "rich":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Refuse())
"""


def test_a_missing_optional_package_names_the_extra() -> None:
    code = MISSING + "import rich.console"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 1  # the probe works: rich cannot be imported
    ran = subprocess.run(
        [sys.executable, "-c", MISSING + "from take5rules.cli.main import main\n"
         "import take5rules.cli.main as cli\n"
         "cli.COMMANDS['ids'] = ('rich.console', 'Console', 'List the rule ids.')\n"
         "main(prog_name='take5rules')", "ids"],
        capture_output=True, text=True, check=False, timeout=60, env=ENGLISH)
    assert ran.returncode == 2
    assert ran.stderr == ("this command needs the optional package rich; install it with: "
                          "pip install 'take5rules[cli]'\n")


def test_play_refuses_a_seat_name_that_is_not_text() -> None:
    # "\udcff" is how Python reads the byte 0xff of a command line that is not UTF-8
    result = CliRunner().invoke(main, ["play", "--players", "a=lowest,\udcff=random", "--json",
                                       "--lang", "en"])
    assert result.exit_code == 1
    assert result.output == ("player name '\\udcff': a player's name is a non-empty text "
                             "[rule setup.players]\n")


def test_play_refuses_a_log_name_with_a_nul() -> None:
    result = CliRunner().invoke(main, ["play", "--log", "game\x00.json", "--lang", "en"])
    assert result.exit_code == 2
    assert "Invalid value for --log" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)



@pytest.mark.parametrize(("language", "line"), [
    ("fr", r"\d+ fichiers écrits dans {out}"),
    ("bg", r"\d+ файла са записани в {out}"),
    ("eo", r"\d+ dosieroj skribitaj en {out}"),
])
def test_vectors_says_what_it_wrote_in_the_language(tmp_path: Path, language: str,
                                                    line: str) -> None:
    out = tmp_path / "suite"
    result = CliRunner().invoke(main, ["vectors", "--out", str(out), "--lang", language])
    assert result.exit_code == 0
    assert re.fullmatch(line.format(out=re.escape(str(out))), result.output.strip())
    assert int(result.output.split()[0]) == len([p for p in out.rglob("*") if p.is_file()])
