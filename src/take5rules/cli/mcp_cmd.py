"""``take5rules mcp``: serve the MCP server over stdio, for language-model agents."""

from __future__ import annotations

import sys

import click

from take5rules.cli.common import choose_language, reported

__all__ = ["mcp_command"]


@click.command("mcp")
@click.option("--lang", "language", metavar="LANG", default="en", show_default=True,
              callback=lambda _context, _parameter, value: choose_language(value),
              help="Language of the JSON-RPC errors for lines that are not MCP messages (each "
                   "tool takes its own language argument).")
def mcp_command(language: str) -> None:
    """Serve the MCP server over stdio: the rules, the referee, the validator and a seat.

    An MCP client starts it as a command (for example {"command": "take5rules", "args":
    ["mcp"]}), so its configuration does not depend on which python is first on the PATH. It
    needs the SDK: pip install 'take5rules[mcp]'.
    """
    if sys.stdout is None or sys.stdin is None:
        sys.exit(1)  # no stdio to serve over
    with reported(language):  # a plain install: one line naming the extra, exit status 2
        from take5rules.agents.mcp_server import main
    main(language)
