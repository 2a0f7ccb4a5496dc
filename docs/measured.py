"""Measured figures for the docs: read from ``benchmarks/results/*.json``, written per locale.

A page asks for a figure with a marker, ``<!-- take5rules:figure FILE EXPRESSION STYLE -->``
(``docs/gen_pages.py`` replaces it), or for a whole table (``<!-- take5rules:figures TABLE -->``,
the tables of :data:`TABLES`). The figures are typed nowhere else: a new run of a benchmark
that writes its JSON file changes every language's page at the next build.

*FILE* is a file of ``benchmarks/results/`` without ``.json``. *EXPRESSION* is a path into it,
its steps separated by dots (``ladder.best.difference``; a number step indexes a list), or
paths and whole numbers joined by ``*`` and ``/`` (``head_to_head.best.mean_ms/head_to_head.
mc-64.mean_ms``, ``4*head_sets``). *STYLE* says how the value is written (:data:`STYLES`); the
numbers are Babel's :func:`~babel.numbers.format_decimal` in the page's locale (a decimal comma
and the locale's grouping in French, Bulgarian, Italian and Esperanto), with an explicit sign
``+`` or ``-`` where the style asks for one, as the pages always wrote them.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal, format_percent


class FigureError(ValueError):
    """A figure that the results do not hold, or a style or table that does not exist."""


#: Documents made of others: their ``rows`` one after the other, and their other members (the
#: later file's on a clash). ``jobs`` is the table of the jobs each against its peer, each
#: benchmark saving its own file with ``--write``.
COMPOSED: dict[str, tuple[str, ...]] = {"jobs": ("referee", "validate", "conform", "cli")}


def load(results: Path, name: str) -> Any:
    """The JSON document ``results/NAME.json`` (or the one :data:`COMPOSED` makes of others)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise FigureError(f"{name!r} is not the name of a file of benchmarks/results")
    if name in COMPOSED:
        composed: dict[str, Any] = {"rows": []}
        for part in COMPOSED[name]:
            document = load(results, part)
            composed["rows"].extend(document.get("rows", []))
            composed.update({key: value for key, value in document.items() if key != "rows"})
            composed[part] = document
        return composed
    path = results / f"{name}.json"
    if not path.exists():
        raise FigureError(f"{path} does not exist")
    return json.loads(path.read_text(encoding="utf-8"))


def lookup(data: Any, path: str) -> Any:
    """The value at the dotted *path* of *data* (a number step indexes a list)."""
    value = data
    for step in path.split("."):
        if isinstance(value, Mapping) and step in value:
            value = value[step]
        elif isinstance(value, list) and step.isdigit() and int(step) < len(value):
            value = value[int(step)]
        else:
            raise FigureError(f"no {step!r} in {path!r}")
    return value


_TERM = re.compile(r"\s*([*/])\s*")


def evaluate(data: Any, expression: str) -> Any:
    """*expression*: a path, or paths and whole numbers joined by ``*`` and ``/``."""
    parts = _TERM.split(expression.strip())
    values = [int(part) if part.isdigit() else lookup(data, part) for part in parts[::2]]
    if len(values) == 1:
        return values[0]
    result = float(_number(values[0], expression))
    for operator, value in zip(parts[1::2], values[1:], strict=True):
        number = _number(value, expression)
        result = result * number if operator == "*" else result / number
    return int(result) if result == int(result) and "/" not in expression else result


def _number(value: Any, expression: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FigureError(f"{expression!r} is not a number: {value!r}")
    return float(value)


def decimal(value: float, places: int, locale: str, *, signed: bool = False) -> str:
    """*value* with *places* decimals in *locale*; with *signed*, a ``+`` or ``-`` before it.

    The sign is the ASCII one the pages use in every language (``-1,85``, ``+0,14``).
    """
    pattern = "#,##0" + ("." + "0" * places if places else "")
    text = format_decimal(abs(value), format=pattern, locale=locale)
    negative = value < 0 and text.strip("0.,\u00a0\u202f") != ""
    if negative:
        return "-" + text
    return ("+" + text) if signed else text


def _sequence(value: Any, style: str) -> Sequence[float]:
    if not isinstance(value, list) or len(value) != 3:
        raise FigureError(f"the style {style!r} needs [estimate, low, high], not {value!r}")
    return [_number(item, style) for item in value]


def interval(value: Any, locale: str) -> str:
    """``+12.80 (+10.54 – +14.86)``: an estimate and its 95% interval, signed, two decimals."""
    mean, low, high = _sequence(value, "interval")
    return (f"{decimal(mean, 2, locale, signed=True)} ({decimal(low, 2, locale, signed=True)} "
            f"\N{EN DASH} {decimal(high, 2, locale, signed=True)})")


def percent(value: Any, locale: str) -> str:
    """A fraction as a percentage with one decimal, spaced as *locale* spaces it (``93,3 %``)."""
    pattern = Locale.parse(locale).percent_formats[None].pattern.replace("#,##0", "#,##0.0")
    return format_percent(_number(value, "pct1"), format=pattern, locale=locale)


def percent_interval(value: Any, locale: str) -> str:
    """``25.0% (21.9% – 28.1%)``: a share and its 95% interval, as :func:`percent` writes each.

    >>> percent_interval([0.25, 0.219, 0.281], "fr")
    '25,0\N{NO-BREAK SPACE}% (21,9\N{NO-BREAK SPACE}% – 28,1\N{NO-BREAK SPACE}%)'
    """
    share, low, high = _sequence(value, "pct-interval")
    return (f"{percent(share, locale)} ({percent(low, locale)} \N{EN DASH} "
            f"{percent(high, locale)})")


def milliseconds(value: Any, locale: str) -> str:
    """A time in ms: one decimal from 1 ms up, three below (``0.005``, ``3.2``)."""
    number = _number(value, "ms")
    return decimal(number, 1 if number >= 1 else 3, locale)


def day(value: Any, locale: str) -> str:
    """The day of a run's ``YYYY-MM-DD HH:MM UTC`` date, as *locale* writes a date in full.

    >>> day("2026-12-01 11:29 UTC", "fr"), day("2026-12-01 11:29 UTC", "en")
    ('1 décembre 2026', 'December 1, 2026')
    """
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}( .*)?", value):
        raise FigureError(f"{value!r} is not a date written YYYY-MM-DD")
    when = datetime.date.fromisoformat(value[:10])
    if locale == "eo":  # Babel's Esperanto capitalises the month and leaves out the ordinal
        month = format_date(when, format="MMMM", locale=locale).lower()
        return f"la {when.day}-a de {month} {when.year}"
    return format_date(when, format="long", locale=locale)


#: The styles of a figure: each writes a value of the results in a locale.
STYLES: dict[str, Callable[[Any, str], str]] = {
    "raw": lambda value, locale: str(value),
    "int": lambda value, locale: decimal(_number(value, "int"), 0, locale),
    "d1": lambda value, locale: decimal(_number(value, "d1"), 1, locale),
    "d2": lambda value, locale: decimal(_number(value, "d2"), 2, locale),
    "d3": lambda value, locale: decimal(_number(value, "d3"), 3, locale),
    "d4": lambda value, locale: decimal(_number(value, "d4"), 4, locale),
    "s2": lambda value, locale: decimal(_number(value, "s2"), 2, locale, signed=True),
    "ms": milliseconds,
    "pct1": percent,
    "interval": interval,
    "pct-interval": percent_interval,
    "day": day,
}


def figure(results: Path, argument: str, locale: str) -> str:
    """The figure a marker's *argument* (``FILE EXPRESSION STYLE``) asks for, in *locale*."""
    words = argument.split()
    if len(words) != 3:
        raise FigureError(f"a figure is 'FILE EXPRESSION STYLE', not {argument!r}")
    name, expression, style = words
    if style not in STYLES:
        raise FigureError(f"no style {style!r} (the styles: {', '.join(STYLES)})")
    return STYLES[style](evaluate(load(results, name), expression), locale)


# --- whole tables ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """A column of a table: its heading (a key of the page's ``labels:``), its value, its style.

    *value* is an expression on a row's entry (a path, or paths and numbers joined by ``*`` and
    ``/``), or a function of the entry; ``@`` stands for the row's name (written as code). The
    style ``template`` writes the label ``LABEL-VALUE`` of the page with the entry's fields,
    whole numbers in the locale (``{players} players``); *unit* follows the number after a
    no-break space.
    """

    label: str
    value: str | Callable[[Any], Any]
    style: str
    right: bool = True
    unit: str = ""


@dataclass(frozen=True)
class Table:
    """A table of one results file: its rows are the entries of a mapping or a list in it."""

    file: str
    rows: str
    columns: tuple[Column, ...]
    #: For a mapping: the names of its rows in the order the page shows them (every name of
    #: the mapping, no other); empty, the order of the results file.
    order: tuple[str, ...] = ()
    #: The label of a last row that sums the rows' numbers (its other cells computed from the
    #: sums), or nothing.
    total: str = ""
    #: The label of a sentence written instead of the table when the results hold no row (a
    #: part of a benchmark that a run may leave out), or nothing: then an empty table is an
    #: error.
    empty: str = ""


#: The tables a page can ask for by name.
TABLES: dict[str, Table] = {
    # The strength ladder: each player against three cautious players (bench_strength.py).
    "strength-ladder": Table(
        "strength", "ladder",
        (Column("player", "@", "code", right=False), Column("ms-mean", "mean_ms", "ms"),
         Column("ms-median", "median_ms", "ms"), Column("heads-per-deal", "per_deal", "d2"),
         Column("against-cautious", "difference", "interval"),
         Column("wins-95", "wins", "pct-interval")),
        order=("random", "lowest", "greedy", "policy", "mc-8", "mc-24", "mc-64", "mc-108h",
               "ismcts", "best"),
    ),
    # best (ISMCTS) at several iteration counts, each against three cautious (bench_strength.py).
    "strength-think": Table(
        "strength", "think",
        (Column("iterations", "iterations", "int"), Column("ms-mean", "mean_ms", "ms"),
         Column("ms-median", "median_ms", "ms"), Column("heads-per-deal", "per_deal", "d2"),
         Column("against-cautious", "difference", "interval")),
        empty="no-think",
    ),
    # The learned policy at each epoch of its training, against three cautious
    # (bench_strength.py --checkpoints); a run without checkpoints has none.
    "strength-training": Table(
        "strength", "training",
        (Column("epoch", "epoch", "int"), Column("stage", "stage", "template", right=False),
         Column("decisions", "decisions", "int"), Column("deals", "deals", "int"),
         Column("ms-mean", "mean_ms", "ms"),
         Column("heads-per-deal", "per_deal", "d2"),
         Column("against-cautious", "difference", "interval")),
        empty="no-training",
    ),
    # policy and best at a table of ten, each with nine cautious (bench_strength.py --ten-sets);
    # a run with --ten-sets 0 has none.
    "strength-ten": Table(
        "strength", "ten",
        (Column("player", "@", "code", right=False), Column("ms-mean", "mean_ms", "ms"),
         Column("ms-median", "median_ms", "ms"), Column("ms-max", "max_ms", "ms"),
         Column("heads-per-deal", "per_deal", "d2"),
         Column("against-cautious", "difference", "interval")),
        order=("policy", "best"), empty="no-ten",
    ),
    # The table that chose best: the three searches and one cautious player (bench_best.py).
    "strength-best": Table(
        "best", "players",
        (Column("player", "@", "code", right=False), Column("heads-per-deal", "per_deal", "d2"),
         Column("minus-mc-64", "minus.mc-64", "interval"),
         Column("minus-mc-108h", "minus.mc-108h", "interval")),
        order=("ismcts", "mc-108h", "mc-64"),
    ),
    # ISMCTS against mc-64, one run a row (bench_ismcts.py).
    "strength-ismcts": Table(
        "ismcts", "runs",
        (Column("iterations", "iterations", "int"), Column("exploration", "exploration", "int"),
         Column("worlds", "worlds", "label", right=False),
         Column("deal-sets", "sets", "sets-seed"),
         Column("per-deal-95", "per_deal", "interval"),
         Column("per-game-95", "per_game", "interval"), Column("ms-ratio", "ms", "ms-pair")),
    ),
    # The engine against py6nimmt and the floor (benchmarks/run.py; reference/benchmarks.md).
    "engine": Table(
        "engine", "rows",
        (Column("job", "job", "template", right=False), Column("take5rules", "take5rules", "int"),
         Column("py6nimmt-version", "py6nimmt", "int"),
         Column("ratio", "take5rules/py6nimmt", "d2"),
         Column("floor", "floor", "int"), Column("ratio", "take5rules/floor", "d2")),
    ),
    # The other jobs of benchmarks/run.py, each against a peer measured in the same run.
    "jobs": Table(
        "jobs", "rows",
        (Column("job", "job", "template", right=False), Column("take5rules", "unit", "template"),
         Column("peer", "peer", "template", right=False), Column("ratio", "rate/peer_rate", "d2")),
    ),
    # The batched simulator (bench_batch.py): rounds per CPU-second, memory.
    "batch": Table(
        "batch", "rows",
        (Column("games-a-batch", "games", "int"), Column("batch", "take5rules", "int"),
         Column("numpy-kernel", "numpy_kernel", "int"),
         Column("plain-numpy", "plain_numpy", "int"), Column("c-loop", "c", "int"),
         Column("py6nimmt", "py6nimmt", "int"), Column("vs-plain-numpy", "vs_plain_numpy", "d2"),
         Column("vs-c", "vs_c", "d2"), Column("vs-py6nimmt", "vs_py6nimmt", "int"),
         Column("peak-rss", "peak_rss_mb", "int", unit="MB"),
         Column("memory-a-game", "bytes_a_game", "int", unit="B")),
    ),
    # The arena's memory and time, before and after (bench_arena.py).
    "arena-memory": Table(
        "arena", "memory",
        (Column("games", "games", "int"), Column("before-memory", "before_bytes", "int", unit="B"),
         Column("after-memory", "after_bytes", "int", unit="B"),
         Column("before-after", "ratio", "d1"),
         Column("peak-before", "before_peak_mb", "d1", unit="MB"),
         Column("peak-after", "after_peak_mb", "d1", unit="MB")),
    ),
    "arena-time": Table(
        "arena", "time",
        (Column("games", "games", "int"), Column("before", "before_s", "d2", unit="s"),
         Column("after", "after_s", "d2", unit="s"), Column("before-after", "ratio", "d1"),
         Column("peak-before", "before_peak_mb", "d1", unit="MB"),
         Column("peak-after", "after_peak_mb", "d1", unit="MB")),
    ),
    # Mutation testing of the rule modules (scripts/mutate.py; contributing.md).
    "mutation": Table(
        "mutation", "modules",
        (Column("module", "@", "code", right=False), Column("mutants", "mutants", "int"),
         Column("killed", "killed", "int"), Column("reviewed", "reviewed", "int"),
         Column("killed-of-all", "killed/mutants", "pct1"),
         Column("killed-of-non-equivalent",
                lambda entry: entry["killed"] / (entry["mutants"] - entry["reviewed"]), "pct1")),
        total="all",
    ),
}


def _cell(table: Table, column: Column, name: str, entry: Any, locale: str,
          label: Callable[[str], str]) -> str:
    if column.value == "@":
        return f"`{name}`"
    try:
        value = (column.value(entry) if callable(column.value)
                 else evaluate(entry, column.value))
    except FigureError:
        return ""  # no such figure for this row (a player is not its own baseline)
    if column.style == "label":
        return label(str(value))
    if column.style == "template":
        fields = {key: STYLES["int"](field, locale) if isinstance(field, int) else field
                  for key, field in entry.items()}
        return label(f"{column.label}-{value}").format(**fields)
    if column.style == "sets-seed":
        return f"{STYLES['int'](value, locale)} ({STYLES['int'](lookup(entry, 'seed'), locale)})"
    if column.style == "ms-pair":
        if not isinstance(value, Mapping) or len(value) != 2:
            raise FigureError(f"{table.file}: 'ms' is two players' times, not {value!r}")
        return " / ".join(STYLES["d1"](time, locale) for time in value.values())
    written = STYLES[column.style](value, locale)
    return f"{written}\N{NO-BREAK SPACE}{column.unit}" if column.unit else written


def table(results: Path, name: str, locale: str, label: Callable[[str], str]) -> str:
    """The table *name* of :data:`TABLES`, its headings from *label*, its figures in *locale*."""
    if name not in TABLES:
        raise FigureError(f"no table {name!r} (the tables: {', '.join(TABLES)})")
    spec = TABLES[name]
    document = load(results, spec.file)
    try:
        rows = lookup(document, spec.rows)
    except FigureError:
        if not spec.empty:
            raise
        rows = []  # a run that left the part out: the sentence that says so
    if spec.empty and not rows:
        return label(spec.empty) + "\n"
    if isinstance(rows, Mapping):
        if spec.order and set(rows) != set(spec.order):
            raise FigureError(
                f"{spec.file}.json's {spec.rows} has {sorted(rows)}, the table {name!r} of "
                f"docs/measured.py shows {sorted(spec.order)}: make them the same")
        entries = [(row, rows[row]) for row in spec.order or rows]
    elif isinstance(rows, list):
        entries = [("", row) for row in rows]
    else:
        raise FigureError(f"{spec.file}.json's {spec.rows} is not a table")
    lines = [
        "| " + " | ".join(label(column.label) for column in spec.columns) + " |",
        "| " + " | ".join("---:" if column.right else "---" for column in spec.columns) + " |",
    ]
    for row, entry in entries:
        cells = [_cell(spec, column, row, entry, locale, label) for column in spec.columns]
        lines.append("| " + " | ".join(cells) + " |")
    if spec.total:
        sums = {key: sum(entry[key] for _, entry in entries) for key, value in entries[0][1].items()
                if isinstance(value, (int, float)) and not isinstance(value, bool)}
        cells = [_cell(spec, column, "", sums, locale, label) for column in spec.columns]
        cells[0] = f"**{label(spec.total)}**"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
