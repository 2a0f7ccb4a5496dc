"""The errors: every one a Take5Error and a ValueError, every one surviving pickling."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil

import pytest

import take5rules
from take5rules._messages import N_, Phrase
from take5rules.errors import NOT_RULES, IllegalMoveError, Take5Error, Where
from take5rules.registry import RULE_ORDER


def _every_error_class() -> list[type[Take5Error]]:
    # every module of every package, so that the classes found do not depend on which tests
    # ran first (a subclass is known once its module is imported)
    for module in pkgutil.walk_packages(take5rules.__path__, "take5rules."):
        if module.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(module.name)
        except ImportError:  # an extra that is not installed
            continue
    found: list[type[Take5Error]] = []
    todo = [Take5Error]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


ERRORS = _every_error_class()


def _make(cls: type[Take5Error]) -> Take5Error:
    where = Where(round=2, turn=3, player="bob", card=74)
    template = N_("card {value} is not in the hand of {player!r}")
    params = {"value": 74, "player": "bob", "reason": Phrase(N_("malformed JSON"))}
    positional = [name for name, parameter in inspect.signature(cls).parameters.items()
                  if parameter.kind is parameter.POSITIONAL_ONLY]
    if positional[:2] == ["kind", "detail"]:  # a program's failure: a kind and a phrase
        return cls("exited", Phrase(template, **params), where=where)  # type: ignore[arg-type]
    if positional[:1] == ["kind"]:  # a failure of a kind, its id fixed
        return cls("exited", template, where=where, **params)
    if len(positional) == 1:  # a class that fixes its own id (protocol, log)
        return cls(template, where=where, **params)  # type: ignore[call-arg]
    return cls("turn.reveal", template, where=where, **params)


def test_every_error_class_is_found() -> None:
    names = {cls.__name__ for cls in ERRORS}
    assert {"IllegalMoveError", "MalformedInputError", "RulesError", "ProtocolError",
            "LogError", "MissingTranslationError"} <= names


@pytest.mark.parametrize("cls", ERRORS, ids=lambda cls: cls.__name__)
def test_every_error_survives_pickling(cls: type[Take5Error]) -> None:
    error = _make(cls)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(error, protocol))
        assert type(copy) is cls
        assert (copy.rule, copy.where, copy.template, copy.params) == (
            error.rule, error.where, error.template, error.params)
        assert str(copy) == str(error)
        assert copy.args == error.args


def test_illegal_move_error_is_a_value_error() -> None:
    # As python-chess's IllegalMoveError: `except ValueError` catches a move the rules forbid.
    with pytest.raises(ValueError, match=r"turn\.reveal"):
        raise IllegalMoveError("turn.reveal", N_("card {value} is not in the hand of {player!r}"),
                               value=16, player="bob")


def test_not_rules_are_no_rule_ids_and_have_texts() -> None:
    assert set(NOT_RULES) >= {"argument", "variant-name", "protocol", "log", "registry", "i18n"}
    assert not set(NOT_RULES) & set(RULE_ORDER)
    assert all("." not in key and text for key, text in NOT_RULES.items())


@pytest.mark.parametrize("rule_id", sorted(NOT_RULES))
def test_not_rules_are_explained_in_every_language(rule_id: str) -> None:
    from take5rules.text import LANGUAGES, explain

    for language in LANGUAGES:
        explained = explain(rule_id, language, strict=True)
        assert explained.statement and explained.title == rule_id and not explained.sources


def test_the_headline_names_import_from_the_top_level() -> None:
    # Issue 16: validate, explain, narrate, Where and LogError from `take5rules` itself.
    import subprocess
    import sys

    code = ("from take5rules import validate, explain, narrate, Where, LogError\n"
            "import inspect\n"
            "assert inspect.isfunction(validate) and validate.__name__ == 'validate'\n"
            "assert explain('game.end', 'it').title == 'Fine della partita'\n"
            "assert narrate.__name__ == 'narrate' and Where(1).round == 1\n"
            "assert issubclass(LogError, ValueError)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_take5rules_validate_is_the_function_whichever_is_imported_first() -> None:
    # take5rules.validate is the function of take5rules.logs.validator: importing that module
    # first must not put a module in its place.
    import subprocess
    import sys

    code = ("import take5rules.logs.validator\n"
            "import take5rules\n"
            "from take5rules import CautiousPlayer, play_game\n"
            "from take5rules.logs.writer import log_from_events\n"
            "log = log_from_events(play_game({'a': CautiousPlayer(), 'b': CautiousPlayer()}))\n"
            "assert take5rules.validate(log).valid\n"
            "from take5rules import validate\n"
            "assert validate is take5rules.logs.validator.validate\n")
    subprocess.run([sys.executable, "-c", code], check=True)
