"""One list of languages everywhere (``--help``, MCP), and the fallback notice for a language
the environment asks for and take5rules does not speak (issue 27)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
#: The languages with a catalog in the repository: the list every page and command should give.
CATALOGS = sorted(path.parent.parent.name
                  for path in (ROOT / "locales").glob("*/LC_MESSAGES/take5rules.po"))
NO_LOCALE = {"LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None}


def test_the_repository_has_the_seven_catalogs() -> None:
    assert CATALOGS == ["bg", "de", "en", "eo", "fr", "it", "nl"]


@pytest.mark.parametrize("command", ["play", "rules", "replay", "validate"])
def test_help_lists_every_language_a_catalog_speaks(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"], env={**NO_LOCALE, "LANG": "C"},
                                terminal_width=400)
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "Language of the text:" in line)
    listed = line.split("Language of the text:")[1].split("(")[0]
    assert sorted(code.strip() for code in listed.split(",")) == CATALOGS


@pytest.mark.parametrize("language", ["de", "nl"])
def test_the_languages_listed_beyond_the_five_work(language: str) -> None:
    result = CliRunner().invoke(main, ["explain", "table.low-card", "--lang", language])
    assert result.exit_code == 0, result.output
    assert "unknown language" not in result.output
    english = CliRunner().invoke(main, ["explain", "table.low-card", "--lang", "en"])
    assert result.output != english.output


@pytest.mark.parametrize("variable", ["LANG", "LC_MESSAGES", "LC_ALL"])
def test_an_environment_language_without_a_catalog_falls_back_with_a_notice(
        variable: str) -> None:
    result = CliRunner().invoke(main, ["explain", "table.low-card"],
                                env={**NO_LOCALE, "LANG": None, variable: "pt_BR.UTF-8"})
    assert result.exit_code == 0, result.output
    assert result.stderr == "unknown language 'pt_BR.UTF-8'; using English\n"
    assert result.stdout.startswith("table.low-card — The low card\n")


@pytest.mark.parametrize("value", ["C", "C.UTF-8", "POSIX", "fr_FR.UTF-8"])
def test_an_environment_language_that_resolves_gives_no_notice(value: str) -> None:
    result = CliRunner().invoke(main, ["explain", "table.low-card"],
                                env={**NO_LOCALE, "LANG": value})
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_mcp_lists_the_same_languages() -> None:
    pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")
    import asyncio

    from mcp import Client

    from take5rules.agents.mcp_server import build_server

    async def tools() -> list[Any]:
        async with Client(build_server()) as client:
            return list((await client.list_tools()).tools)

    described = [tool.input_schema["properties"]["language"]["description"]
                 for tool in asyncio.run(tools())
                 if "language" in tool.input_schema["properties"]]
    assert described
    for text in described:
        codes = text.split(":")[1]
        assert sorted(code.strip() for code in codes.split(",")) == CATALOGS
    from take5rules.agents import mcp_server

    instructions = mcp_server._INSTRUCTIONS
    said = instructions.split(") in ")[1].split(";")[0]
    assert sorted(code.strip() for code in said.split(",")) == CATALOGS
