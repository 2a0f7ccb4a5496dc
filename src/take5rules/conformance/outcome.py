"""The outcome of a conformance run, and its report in any language (text or JSON)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from take5rules._messages import N_, Nn_
from take5rules.conformance.cases import title as _title
from take5rules.registry import RULE_ORDER
from take5rules.text import explain, translator

__all__ = [
    "EXIT_AGREE",
    "EXIT_BROKEN",
    "EXIT_DISAGREE",
    "ConformanceResult",
    "Failure",
    "FailureKind",
    "InvalidCheck",
    "Mismatch",
    "format_result",
    "result_json",
]

#: Exit status: the program agrees.
EXIT_AGREE = 0
#: Exit status: the program disagrees on some turn.
EXIT_DISAGREE = 1
#: Exit status: the program is broken (cannot start, exits, hangs, answers garbage), or usage.
EXIT_BROKEN = 2

#: How a broken program failed.
FailureKind = Literal["start", "crash", "timeout", "garbage"]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A turn on which the program and take5rules disagree.

    ``source`` is ``"generated"`` for a generated turn, or the id of a worked example or an
    invalid request. ``shrunk`` says whether Hypothesis shrank a generated turn; when it did
    not, ``hypothesis`` says whether that is because Hypothesis is not installed (the extra
    ``take5rules[conform]``) or because it found no smaller disagreeing turn.
    """

    request: Mapping[str, Any]
    ours: Mapping[str, Any]
    theirs: Mapping[str, Any]
    rule: str
    source: str = "generated"
    shrunk: bool = True
    hypothesis: bool = True


@dataclass(frozen=True, slots=True)
class Failure:
    """How the program broke: ``kind`` is start, crash, timeout or garbage.

    ``detail`` is an English template with ``params`` (worded in any language by
    :func:`format_result`); ``request`` is the request it was answering, if any, and
    ``number`` its position (1 for the first request sent).
    """

    kind: FailureKind
    detail: str
    params: Mapping[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""
    request: Mapping[str, Any] | None = None
    number: int | None = None

    @property
    def message(self) -> str:
        """The English description."""
        return self.detail.format(**self.params)


@dataclass(frozen=True, slots=True)
class InvalidCheck:
    """How the program answered one invalid request."""

    id: str
    our_rule: str
    their_rule: str | None
    errored: bool

    @property
    def same_rule(self) -> bool:
        """Whether the program named the same rule id as take5rules."""
        return self.errored and self.their_rule == self.our_rule


@dataclass(frozen=True, slots=True)
class ConformanceResult:
    """The outcome of a conformance run.

    ``agreed`` counts the generated turns that agreed before the first disagreement;
    ``examples`` says for each worked example whether it agreed; ``rules`` counts the rules
    exercised by the agreeing turns (``turn.order`` once per turn, each placement's rule once).
    """

    command: tuple[str, ...]
    cases: int
    seed: int
    agreed: int
    examples: tuple[tuple[str, bool], ...]
    invalid: tuple[InvalidCheck, ...]
    rules: Mapping[str, int]
    mismatch: Mismatch | None = None
    failure: Failure | None = None

    @property
    def status(self) -> Literal["agree", "disagree", "broken"]:
        """``agree``, ``disagree`` or ``broken``."""
        if self.failure is not None:
            return "broken"
        return "agree" if self.mismatch is None else "disagree"

    @property
    def ok(self) -> bool:
        """Whether the program agrees on every turn sent."""
        return self.status == "agree"

    @property
    def exit_code(self) -> int:
        """The exit status of ``take5rules conform``: 0, 1 or 2."""
        return {"agree": EXIT_AGREE, "disagree": EXIT_DISAGREE, "broken": EXIT_BROKEN}[
            self.status
        ]



def _dumps(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in the program's reply: show it escaped
        return json.dumps(value)
    return text


def format_result(result: ConformanceResult, language: str = "en") -> str:
    """The report of a conformance run in *language*, as ``take5rules conform`` prints it."""
    tr = translator(language)
    g = tr.gettext
    n = tr.number
    command = shlex.join(result.command)
    lines: list[str] = []
    if result.failure is not None:
        failure = result.failure
        problem = g(failure.detail).format(**failure.params)
        if failure.request is None:
            lines.append(g(N_("{command} is broken: {problem}.")).format(
                command=command, problem=problem))
        else:
            lines.append(g(N_("{command} is broken: answering request {number}, {problem}.")
                           ).format(command=command, number=n(failure.number or 0),
                                    problem=problem))
            lines.append("  " + g(N_("request: {request}")).format(request=_dumps(failure.request)))
        if failure.stderr_tail:
            lines.append("  " + g(N_("the last lines of its stderr:")))
            lines.extend(f"  | {line}" for line in failure.stderr_tail.splitlines())
        elif failure.kind != "start":
            lines.append("  " + g(N_("it wrote nothing on stderr.")))
        return "\n".join(lines)
    if result.mismatch is not None:
        mismatch = result.mismatch
        lines.append(tr.ngettext(Nn_(
            "{command} disagrees with take5rules after {count} agreeing generated turn "
            "(seed {seed}).",
            "{command} disagrees with take5rules after {count} agreeing generated turns "
            "(seed {seed}).",
        ), result.agreed).format(command=command, count=n(result.agreed), seed=result.seed))
        if mismatch.shrunk:
            lines.append(g(N_("The smallest disagreeing turn (shrunk by Hypothesis):")))
        elif mismatch.source == "generated" and not mismatch.hypothesis:
            lines.append(g(N_("The first disagreeing turn, not shrunk: install "
                              "take5rules[conform] (it brings Hypothesis) to have it shrunk:")))
        elif mismatch.source == "generated":
            lines.append(g(N_("The first disagreeing turn (Hypothesis found no smaller one):")))
        else:
            lines.append(g(N_("The disagreeing turn ({source}):")).format(
                source=g(_title(mismatch.source))))
        rule = explain(mismatch.rule, tr.language)
        lines.extend([
            "  " + g(N_("request: {request}")).format(request=_dumps(mismatch.request)),
            "  " + g(N_("ours:    {reply}")).format(reply=_dumps(mismatch.ours)),
            "  " + g(N_("theirs:  {reply}")).format(reply=_dumps(mismatch.theirs)),
            "  " + g(N_("rule:    {rule} ({title}): {statement}")).format(
                rule=mismatch.rule, title=rule.title, statement=rule.statement),
        ])
    else:
        lines.append(tr.ngettext(Nn_(
            "{command} agrees with take5rules on {examples} worked examples and {count} "
            "generated turn (seed {seed}).",
            "{command} agrees with take5rules on {examples} worked examples and {count} "
            "generated turns (seed {seed}).",
        ), result.agreed).format(command=command, examples=n(len(result.examples)),
                                 count=n(result.agreed), seed=result.seed))
        exercised = [
            g(N_("{rule} {count}")).format(rule=rule_id, count=n(count))
            for rule_id, count in sorted(result.rules.items(), key=lambda item: _rank(item[0]))
        ]
        lines.append(g(N_("Rules exercised: {rules}.")).format(rules=tr.list(exercised)))
    failed = [example for example, agrees in result.examples if not agrees]
    if failed and (result.mismatch is None or result.mismatch.source == "generated"):
        lines.append(g(N_("Worked examples that disagree: {examples}.")).format(
            examples="; ".join(g(_title(example)) for example in failed)))
    if result.invalid:
        errored = sum(check.errored for check in result.invalid)
        lines.append(g(N_("Invalid requests answered with an error: {count} of {total}.")).format(
            count=n(errored), total=n(len(result.invalid))))
        for check in result.invalid:
            if not check.errored:
                lines.append("  " + g(N_(
                    "{request}: answered with a turn, not an error (take5rules names {ours})"
                )).format(request=g(_title(check.id)), ours=check.our_rule))
            elif not check.same_rule:
                lines.append("  " + g(N_(
                    "{request}: rule {theirs} where take5rules names {ours} (not a failure)"
                )).format(request=g(_title(check.id)), theirs=check.their_rule or "?",
                          ours=check.our_rule))
    return "\n".join(lines)



def _rank(rule_id: str) -> int:
    return RULE_ORDER.index(rule_id) if rule_id in RULE_ORDER else len(RULE_ORDER)



def result_json(result: ConformanceResult, language: str = "en") -> dict[str, Any]:
    """The result as a JSON-ready object (what ``take5rules conform --json`` prints)."""
    data: dict[str, Any] = {
        "status": result.status,
        "exit_code": result.exit_code,
        "command": list(result.command),
        "seed": result.seed,
        "cases": result.cases,
        "agreed": result.agreed,
        "examples": dict(result.examples),
        "invalid": [
            {"request": check.id, "error": check.errored, "rule": check.their_rule,
             "expected_rule": check.our_rule, "same_rule": check.same_rule}
            for check in result.invalid
        ],
        "rules": dict(result.rules),
        "mismatch": None,
        "failure": None,
    }
    if result.mismatch is not None:
        mismatch = result.mismatch
        rule = explain(mismatch.rule, language)
        data["mismatch"] = {
            "source": mismatch.source,
            "shrunk": mismatch.shrunk,
            "hypothesis": mismatch.hypothesis,
            "request": mismatch.request,
            "ours": mismatch.ours,
            "theirs": mismatch.theirs,
            "rule": mismatch.rule,
            "title": rule.title,
            "statement": rule.statement,
        }
    if result.failure is not None:
        failure = result.failure
        data["failure"] = {
            "kind": failure.kind,
            "message": translator(language).gettext(failure.detail).format(**failure.params),
            "request": failure.request,
            "number": failure.number,
            "stderr": failure.stderr_tail,
        }
    return data

