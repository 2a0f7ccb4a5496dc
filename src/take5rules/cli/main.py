"""The ``take5rules`` command line.

Every command that prints prose takes ``--lang`` (default: the environment's language, as
LC_ALL, LC_MESSAGES and LANG say); errors are printed as one clear line naming the rule, never
as a traceback.

The group loads each command from :mod:`take5rules.cli` only when it runs, so that
``take5rules --help`` imports neither the commands nor Babel's catalogs nor any optional
package. A closed pipe (``take5rules play | head -1``) ends a command quietly, with exit status 0; a
full disk, a closed stdout, text the output's encoding cannot hold or any other failure to
write the output ends it with one line on stderr and exit status 2; a command whose optional
package is missing says which extra installs it. click's own messages ("Usage:", "Error: ...")
are worded in the language asked (:mod:`take5rules.cli.click_frame`).

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(main, ["ids"]).output.splitlines()[0])
cards.deck
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from take5rules import __version__
from take5rules._messages import N_, os_reason

__all__ = ["COMMANDS", "EXTRAS", "LazyGroup", "all_commands", "main"]

#: Each command: the module and the attribute that define it, and the first line of its help
#: (shown by ``take5rules --help`` without importing the module; a test keeps them equal).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("take5rules.cli.play_cmd", "play",
             "Play a whole game between built-in players and narrate it turn by turn."),
    "rules": ("take5rules.cli.rulebook_cmd", "rules",
              "Print the whole rulebook: every rule's id, title, statement and explanation."),
    "explain": ("take5rules.cli.rulebook_cmd", "explain_command",
                "Explain one rule (see `take5rules rules` for the ids)."),
    "discrepancies": ("take5rules.cli.rulebook_cmd", "discrepancies",
                      "Where the source texts disagree, what each says, and what the library "
                      "follows."),
    "referee": ("take5rules.cli.referee_cmd", "referee",
                "Answer the referee line protocol: one JSON turn per line on stdin, one reply "
                "per line."),
    "ids": ("take5rules.cli.rulebook_cmd", "ids",
            "List the rule ids, one per line (for scripts)."),
    "conform": ("take5rules.cli.conform_cmd", "conform_command",
                "Check another referee program, or a player program, against take5rules."),
    "validate": ("take5rules.cli.validate_cmd", "validate_command",
                 "Check take5-log game logs (FILE, or - for stdin) against every rule."),
    "arena": ("take5rules.cli.arena_cmd", "arena_command",
              "Play seeded games between PLAYERS and rank them by mean penalty."),
    "vectors": ("take5rules.cli.vectors_cmd", "vectors_command",
                "Write the conformance vectors: referee turns and whole-game logs, valid and "
                "invalid."),
    "replay": ("take5rules.cli.replay_cmd", "replay_command",
               "Narrate a saved game (a take5-log) turn by turn, as `take5rules play` told it."),
    "show": ("take5rules.cli.replay_cmd", "show_command",
             "Draw a saved game (a take5-log) as a web page, turn by turn."),
    "player": ("take5rules.cli.player_cmd", "player_command",
               "Serve a built-in player over the take5-player protocol on stdin and stdout."),
    "mcp": ("take5rules.cli.mcp_cmd", "mcp_command",
            "Serve the MCP server over stdio: the rules, the referee, the validator and a "
            "seat."),
}

#: The optional packages a command may need, and the extra of take5rules that installs each.
EXTRAS: dict[str, str] = {"hypothesis": "conform", "rich": "cli", "mcp": "mcp",
                          "numpy": "env", "gymnasium": "env", "pettingzoo": "env"}

_CANNOT_WRITE = N_("cannot write the output: {reason}")
_CANNOT_ENCODE = N_("cannot write the output: {text!r} cannot be written in the encoding "
                    "{encoding}")
_NEEDS_EXTRA = N_("this command needs the optional package {package}; install it with: "
                  "pip install 'take5rules[{extra}]'")


def _language_asked(args: Sequence[str] | None) -> str:
    """The language of ``--lang`` in *args* (the command line), else the environment's.

    For the few lines said after a command has ended (its own ``--lang`` value is gone by then).

    >>> _language_asked(["rules", "--lang", "fr"]), _language_asked(["play", "--lang=bg"])
    ('fr', 'bg')
    """
    from take5rules.text import default_language, resolve_language

    words = list(sys.argv[1:] if args is None else args)
    for index, word in enumerate(words):
        if word == "--":
            break
        value = (word.partition("=")[2] if word.startswith("--lang=") else
                 words[index + 1] if word == "--lang" and index + 1 < len(words) else None)
        if value is not None:
            return resolve_language(value)[0]
    return default_language()


def _english_asked(args: Sequence[str] | None) -> bool:
    """Whether the command line or the environment plainly asks for English (or C, POSIX).

    Cheap, without Babel: ``take5rules --help`` in an English environment imports no catalog.

    >>> _english_asked(["rules", "--lang", "en_GB"]), _english_asked(["rules", "--lang=fr"])
    (True, False)
    """
    words = list(sys.argv[1:] if args is None else args)
    asked = next((word.partition("=")[2] for word in words if word.startswith("--lang=")), None)
    if asked is None and "--lang" in words:
        at = words.index("--lang")
        asked = words[at + 1] if at + 1 < len(words) else ""
    if asked is None:
        asked = next((os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG")
                      if os.environ.get(name)), "")
    base = asked.replace("-", "_").split("_")[0].split(".")[0].split("@")[0].lower()
    return base in ("", "c", "posix", "en")


def _say(language: str, template: str, **params: Any) -> None:
    """Print *template*, translated into *language*, as one line on stderr."""
    from take5rules.text import phrase_text

    message = phrase_text(template, language, **params)
    if sys.stderr is not None:
        try:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # stderr is unusable too: the exit status alone tells


def _silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush cannot fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (AttributeError, OSError, ValueError):
        pass  # not a real file (a test runner's buffer): nothing is flushed to a device


class LazyGroup(click.Group):
    """A click group that imports each command of :data:`COMMANDS` when it is first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The commands' names, sorted (as click lists them)."""
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command *cmd_name*, importing its module now; ``None`` if there is none."""
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, attribute, _ = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}.{attribute} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with the help lines of :data:`COMMANDS`, importing none."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _shorten(COMMANDS[name][2], limit)) for name in self.list_commands(ctx)
                if name in COMMANDS]
        if rows:
            from gettext import gettext

            with formatter.section(getattr(click.core, "_", gettext)("Commands")):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a closed pipe (``| head -1``) ends it quietly, with status 0."""
        try:
            return super().invoke(ctx)
        except OSError as error:  # before click's own handler, which exits 1
            if error.errno != errno.EPIPE:
                raise
            _silence_stdout()
            sys.exit(0)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line: a failure to write or a missing extra is one line."""
        from take5rules.cli.click_frame import speak, unspeak

        if standalone_mode and sys.stdout is None:  # started with stdout closed (`>&-`)
            _say(_language_asked(args), _CANNOT_WRITE, reason=os_reason(errno.EBADF))
            sys.exit(2)
        if not _english_asked(args):  # English is click's own: nothing to load for it
            speak(_language_asked(args))
        try:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        except UnicodeEncodeError as error:
            if not standalone_mode:
                raise
            _silence_stdout()
            _say(_language_asked(args), _CANNOT_ENCODE,
                 text=error.object[error.start:error.end], encoding=error.encoding)
            sys.exit(2)
        except ModuleNotFoundError as error:
            package = (error.name or "").partition(".")[0]
            if not standalone_mode or package not in EXTRAS:
                raise
            _say(_language_asked(args), _NEEDS_EXTRA, package=package, extra=EXTRAS[package])
            sys.exit(2)
        except OSError as error:
            if not standalone_mode or not _is_output_error(error):
                raise
            _silence_stdout()
            if error.errno != errno.EPIPE:
                _say(_language_asked(args), _CANNOT_WRITE, reason=os_reason(error))
            sys.exit(0 if error.errno == errno.EPIPE else 2)
        finally:
            unspeak()


def _is_output_error(error: OSError) -> bool:
    """Whether *error* is a failure to write standard output (a closed pipe, a full disk...)."""
    if error.errno == errno.EPIPE:
        return True
    try:
        stdout = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return error.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG,
                           errno.EBADF) and (
        not getattr(error, "filename", None) or error.filename == stdout)


def _shorten(text: str, limit: int) -> str:
    """*text* cut at a word to at most *limit* characters, with "..." when cut (as click does)."""
    if len(text) <= limit:
        return text
    return text[: limit - 3].rsplit(" ", 1)[0].rstrip(",:;") + "..."


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="take5rules")
def main() -> None:
    """The rules of Take 5 / 6 nimmt!: play, explain, referee and check games."""


def all_commands() -> dict[str, click.Command]:
    """Every command, loaded, in the order of :data:`COMMANDS` (for the docs and the tests)."""
    context = click.Context(main, info_name="take5rules")
    loaded = {name: main.get_command(context, name) for name in COMMANDS}
    return {name: command for name, command in loaded.items() if command is not None}


def __getattr__(name: str) -> Any:
    """``event_json``, kept importable from here: it lives with the ``play`` command."""
    if name == "event_json":
        from take5rules.cli.play_cmd import event_json

        return event_json
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
