"""Shared test helpers, and the list of the slow tests.

Two loops (the README says it too):

* ``pytest -m "not slow"``, the fast loop, under a minute on two cores: every rule's tests,
  every module's doctests and at least one test of every module.
* ``pytest`` (what ``scripts/check.sh`` and CI run): everything, the slow tests too.

A test is slow when it fuzzes (Hypothesis throws hundreds of hostile inputs), starts another
Python process (the command line through pipes, signals, a full disk), builds or reads the docs
or a wheel, or sweeps every variant and number of players where one case is enough to catch a
broken rule. Files that are only slow tests say so themselves (``pytestmark``); the others are
listed in :data:`SLOW` here, by file or by test function (all its cases), so that the marks do
not have to be written into test files that other work is editing. :data:`FAST_CASES` keeps one
case of a slow sweep in the fast loop. An entry that no longer names a test is reported at the
end of the run, and so are the tests of the fast loop that start another process or take
longer than :data:`FAST_BUDGET`: candidates for :data:`SLOW`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

_FUZZ = "fuzzing: Hypothesis throws hundreds of hostile inputs"
_PROCESS = "starts another Python process (the command line, pipes, signals, workers)"
_DOCS = "reads or runs every page of the docs"
_WHEEL = "builds or inspects the package in a fresh interpreter"
_SWEEP = "sweeps every variant, number of players or kernel (FAST_CASES keeps one case)"
_LONG = "plays many whole games or draws many examples"
_CHECKER = "checks the layer checker on a planted fault (the fast loop checks the code itself)"

#: The slow tests: a test file, or a test function with all its cases, and why it is slow.
SLOW: dict[str, str] = {
    **{f"tests/test_fuzz_{name}.py": _FUZZ for name in (
        "arena", "batch", "cli", "core", "env", "log", "mcp", "play", "referee", "state")},
    "tests/test_examples_typed.py": _DOCS,
    "tests/test_readme.py::test_every_take5rules_command_works_as_written": _DOCS,
    "tests/test_packaging.py::test_a_library_module_imports_no_cli_and_no_optional_package":
        _WHEEL,
    "tests/test_packaging.py::test_the_probe_sees_an_import": _WHEEL,
    "tests/test_scripts.py": _PROCESS,
    "tests/test_arena_cluster.py": _PROCESS,
    "tests/test_cli_output.py::test_a_full_disk_is_one_line_and_exit_status_2": _PROCESS,
    "tests/test_cli_output.py::test_a_closed_pipe_ends_quietly": _PROCESS,
    "tests/test_cli_output.py::test_a_closed_stdout_is_one_line_and_exit_status_2": _PROCESS,
    "tests/test_cli_output.py::test_a_stdout_closed_while_running_is_one_line": _PROCESS,
    "tests/test_cli_output.py::test_a_missing_optional_package_names_the_extra": _PROCESS,
    "tests/test_cli_output.py::test_vectors_says_what_it_wrote_in_the_language": _PROCESS,
    "tests/test_cli_contract.py::test_each_command_keeps_the_exit_status_contract": _PROCESS,
    "tests/test_cli_contract.py::test_prose_wraps_to_columns": _PROCESS,
    "tests/test_cli_contract.py::test_a_missing_extra_is_named_by_the_module_that_needs_it":
        _PROCESS,
    "tests/test_cli_contract.py::test_every_error_id_is_a_rule_or_an_id_that_says_it_is_none":
        _PROCESS,
    "tests/test_cli_contract.py::test_clicks_frame_speaks_the_language_asked": _PROCESS,
    "tests/test_cli_contract.py::test_a_file_name_the_output_cannot_encode_is_one_line": _PROCESS,
    "tests/test_cli_contract.py::test_a_pipe_closed_by_head_is_success": _PROCESS,
    "tests/test_cli_contract.py::test_without_a_terminal_play_keeps_whole_lines": _PROCESS,
    "tests/test_cli_contract.py::test_the_help_frame_is_translated_too": _PROCESS,
    "tests/test_cli_human.py::test_input_ending_mid_game_keeps_the_log_of_what_was_played":
        _PROCESS,
    "tests/test_arena_run.py::test_a_player_that_never_answers_is_stopped_by_the_move_timeout":
        _PROCESS,
    "tests/test_arena_run.py::test_a_spec_that_exits_is_refused": _PROCESS,
    "tests/test_arena_run.py::test_a_signal_cancels_the_run_and_stops_every_worker": _PROCESS,
    "tests/test_arena_run.py::test_a_player_that_breaks_a_rule_is_exit_status_1_also_from_workers":
        _PROCESS,
    "tests/test_arena_run.py::test_workers_exit_when_their_parent_dies": _PROCESS,
    "tests/test_arena_run.py::test_a_player_that_raises_stops_the_run_with_one_line": _PROCESS,
    "tests/test_arena_run.py::test_a_module_of_the_current_directory_is_a_player": _PROCESS,
    "tests/test_arena_run.py::test_a_file_path_is_a_player": _PROCESS,
    "tests/test_arena_run.py::test_the_header_names_the_variant_and_the_locale_writes_the_numbers":
        _PROCESS,
    "tests/test_arena_run.py::test_a_player_that_ends_its_worker_is_one_line": _PROCESS,
    "tests/test_arena_run.py::test_work_is_submitted_a_little_at_a_time": _PROCESS,
    "tests/test_arena.py::test_processes_give_the_same_results": _PROCESS,
    "tests/test_conform.py::test_wrong_referee_is_caught": _PROCESS,
    "tests/test_conform.py::test_broken_program": _PROCESS,
    "tests/test_conform.py::test_cli_json_and_lang": _PROCESS,
    "tests/test_conform.py::test_cli_reports_a_disagreement_with_exit_1": _PROCESS,
    "tests/test_conform.py::test_python_m_take5rules_conform": _PROCESS,
    "tests/test_conform.py::test_plugin_is_cheap_to_load": _PROCESS,
    "tests/test_conform.py::test_importing_conform_referee_or_the_plugin_does_not_import_hypothesis":
        _PROCESS,
    "tests/test_conform.py::test_without_hypothesis_a_disagreement_is_reported_unshrunk":
        _PROCESS,
    "tests/test_conform.py::test_a_timeout_is_reported_with_all_the_program_wrote_on_stderr":
        _PROCESS,
    "tests/test_conform.py::test_an_endless_reply_line_does_not_fill_our_memory": _PROCESS,
    "tests/test_conform.py::test_fixture_fails_with_the_shrunk_turn": _FUZZ,
    "tests/test_conform.py::test_any_disagreeing_reply_is_blamed_on_a_rule": _FUZZ,
    "tests/test_referee.py::test_a_hostile_line_gets_an_error_and_the_referee_goes_on": _PROCESS,
    "tests/test_referee.py::test_hostile_lines_under_a_strict_utf_8_locale": _PROCESS,
    "tests/test_referee.py::test_an_endless_line_keeps_memory_flat": _PROCESS,
    "tests/test_referee.py::test_a_closed_pipe_ends_the_referee_quietly_with_status_0": _PROCESS,
    "tests/test_referee.py::test_a_full_disk_ends_the_referee_with_one_line": _PROCESS,
    "tests/test_referee.py::test_a_client_counting_one_reply_a_line_never_waits": _PROCESS,
    "tests/test_referee.py::test_referee_command_takes_lang": _PROCESS,
    "tests/test_referee.py::test_blank_lines_get_an_error_reply_in_text_and_in_bytes": _PROCESS,
    "tests/test_conform.py::test_noise_on_stdout_and_stderr_is_tolerated": _PROCESS,
    "tests/test_conform.py::test_an_empty_taken_list_means_took_nothing": _PROCESS,
    "tests/test_conform.py::test_the_report_names_the_invalid_request_answered_with_a_turn":
        _PROCESS,
    "tests/test_errors.py::test_the_headline_names_import_from_the_top_level": _PROCESS,
    "tests/test_packaging.py::test_help_lists_the_commands_without_importing_them": _PROCESS,
    "tests/test_openspiel.py::test_random_sim_test_passes_with_serialization": _SWEEP,
    "tests/test_batch_vector.py::test_dealt_games_play_as_the_engine": _SWEEP,
    "tests/test_validate.py::test_floats_and_booleans_are_never_cards_counts_or_scores": _FUZZ,
    "tests/test_validate.py::test_hostile_bytes_exit_2_with_one_line": _PROCESS,
    "tests/test_validate.py::test_an_endless_file_is_read_up_to_the_limit_only": _PROCESS,
    "tests/test_validate.py::test_closed_stdin_exits_2_with_one_line": _PROCESS,
    "tests/test_human.py::test_a_whole_game_played_through_a_pipe_in_french": _PROCESS,
    "tests/test_human.py::test_each_card_played_by_the_person_is_the_first_legal_answer":
        _PROCESS,
    "tests/test_human.py::test_a_turn_with_a_row_question_is_told_once": _PROCESS,
    "tests/test_human.py::test_the_row_question_comes_after_the_turns_cards": _PROCESS,
    "tests/test_human.py::test_end_of_input_is_one_line_and_exit_status_2": _PROCESS,
    "tests/test_human.py::test_a_human_seat_is_refused_with_json": _PROCESS,
    "tests/test_human.py::test_a_human_game_can_be_logged_and_the_log_is_valid": _PROCESS,
    "tests/test_human.py::test_a_person_at_the_table_sees_the_cards_taken_before_the_round_ends":
        _PROCESS,
    "tests/test_mcp.py::test_stdio_server_answers_the_client": _PROCESS,
    "tests/test_log.py::test_importing_the_library_does_not_import_jsonschema": _PROCESS,
    "tests/test_errors.py::test_take5rules_validate_is_the_function_whichever_is_imported_first":
        _PROCESS,
    "tests/test_vectors.py::test_the_command_writes_the_same_bytes": _PROCESS,
    "tests/test_typography.py::test_no_english_in_the_output": _PROCESS,
    "tests/test_typography.py::test_quotation_marks_are_low_high": _PROCESS,
    "tests/test_i18n.py::test_catalog_template_is_up_to_date_with_the_code": _PROCESS,
    "tests/test_batch.py::test_thousands_of_random_rounds_match_the_rule_functions": _SWEEP,
    "tests/test_batch.py::test_builtin_policies_play_as_the_builtin_players": _SWEEP,
    "tests/test_batch.py::test_any_seeded_round_matches_the_rule_functions": _FUZZ,
    "tests/test_ismcts.py::test_ismcts_plays_every_variant_with_every_number_of_players": _SWEEP,
    "tests/test_openspiel.py::test_ismcts_plays_whole_games": _SWEEP,
    "tests/test_stats.py::test_the_mean_interval_is_scipys_percentile_bootstrap": _SWEEP,
    "tests/test_play.py::test_a_game_answered_from_the_page_is_the_engines_own_game": _SWEEP,
    "tests/test_env_suite.py::test_pettingzoo_performance_benchmark": _LONG,
    "tests/test_properties.py::TestGameMachine": _FUZZ,
    "tests/test_state.py::TestGameMachine": _FUZZ,
    "tests/test_strategies.py::test_hard_cases_are_frequent": _LONG,
    "tests/test_strategies.py::test_requests_are_valid_turns": _LONG,
    "tests/test_strategies.py::test_only_the_lowest_card_can_be_low": _LONG,
    "tests/test_strategies.py::test_plays_avoid_the_table": _LONG,
    "tests/test_log.py::test_the_structural_check_agrees_with_the_json_schema": _LONG,
    "tests/test_kernel.py::test_engine_plays_whole_games_like_the_reference": _LONG,
    "tests/test_validate.py::test_the_fast_path_and_the_stream_report_what_the_rule_functions_report":
        _LONG,
    "tests/test_arena_store.py::test_a_game_takes_a_few_tens_of_bytes_not_a_kilobyte": _LONG,
    "tests/test_bots.py::test_the_lying_table_catches_a_player_that_peeks": _LONG,
    "tests/test_bots.py::test_players_decide_the_same_at_a_table_that_lies_about_the_hidden_cards":
        _LONG,
    "tests/test_ladder.py::test_the_ratings_are_the_bradley_terry_fit_of_the_deals": _LONG,
    "tests/test_encoding.py::test_a_policy_trained_on_batch_vector_plays_the_pettingzoo_env_unchanged":
        _SWEEP,
    "tests/test_encoding.py::test_the_scalar_and_the_batched_path_give_every_seat_the_same_vector":
        _SWEEP,
    "tests/test_game_history.py::test_is_legal_says_whether_act_takes_the_answer": _LONG,
    "tests/test_game_history.py::test_a_value_nested_100000_deep_is_refused_without_recursing":
        _SWEEP,
    "tests/test_validate.py::test_every_mutation_is_detected_with_its_rule": _LONG,
    "tests/test_referee.py::test_answer_replies_as_resolve_turn_does": _LONG,
    "tests/test_conform.py::test_the_seed_decides_the_turns": _PROCESS,
    "tests/test_replay.py::test_show_draws_every_turn_with_the_docs_pictures": _LONG,
    "tests/test_ladder.py::test_the_command_says_when_it_plays_more_games_than_asked": _LONG,
    "tests/test_ismcts.py::test_ismcts_decides_the_same_at_a_table_that_lies_about_the_hidden_cards":
        _LONG,
    "tests/test_policy.py::"
    "test_best_guided_by_the_policy_decides_the_same_at_a_table_that_lies_about_the_hidden_cards":
        _LONG,
    "tests/test_layers.py::test_a_forbidden_import_is_found": _CHECKER,
    "tests/test_layers.py::test_a_circle_is_found": _CHECKER,
    "tests/test_layers.py::test_a_private_import_is_found": _CHECKER,
    "tests/test_layers.py::test_a_private_reach_is_found": _CHECKER,
    "tests/test_ismcts.py::test_a_search_made_by_its_kind_name_alone_plays_the_same_game_every_time":
        _LONG,
    "tests/test_ladder.py::test_the_tables_fit_the_columns_and_keep_every_figure": _SWEEP,
    "tests/test_ladder.py::test_the_standings_and_the_ladder_list_the_players_alike": _SWEEP,
    "src/take5rules/conformance/strategies.py": _LONG,
}

#: One case of a slow sweep kept in the fast loop.
FAST_CASES = frozenset({
    "tests/test_batch.py::test_thousands_of_random_rounds_match_the_rule_functions[numpy-3]",
    "tests/test_batch.py::test_builtin_policies_play_as_the_builtin_players"
    "[numpy-4-cautious_card-CautiousPlayer]",
    "tests/test_ismcts.py::test_ismcts_plays_every_variant_with_every_number_of_players"
    "[Variant.TOURNAMENT-3]",
    "tests/test_encoding.py::test_a_policy_trained_on_batch_vector_plays_the_pettingzoo_env_unchanged"
    "[3-logic]",
    "tests/test_encoding.py::test_the_scalar_and_the_batched_path_give_every_seat_the_same_vector"
    "[3-logic]",
    "tests/test_game_history.py::test_a_value_nested_100000_deep_is_refused_without_recursing"
    "[seed]",
    "tests/test_stats.py::test_the_mean_interval_is_scipys_percentile_bootstrap[1-12]",
    "tests/test_ladder.py::test_the_tables_fit_the_columns_and_keep_every_figure[60]",
    "tests/test_openspiel.py::test_random_sim_test_passes_with_serialization[standard]",
    "tests/test_batch_vector.py::test_dealt_games_play_as_the_engine[numpy-4-40]",
    "tests/test_ladder.py::test_the_standings_and_the_ladder_list_the_players_alike[players0-5]",
    "tests/test_play.py::test_a_game_answered_from_the_page_is_the_engines_own_game[tournament]",
})

#: Tests of the fast loop that start a process on purpose: the one way to test what they test
#: (a conformance run talks to a program, the arena's pool runs workers, the referee command
#: answers over pipes), each quick. The end-of-run report leaves them out.
KEPT_PROCESSES = frozenset({
    "tests/test_conform.py::test_our_referee_agrees",
    "tests/test_conform.py::test_fixture_passes",
    "tests/test_conform.py::test_a_generated_disagreement_is_shrunk_by_hypothesis",
    "tests/test_arena_run.py::test_objects_go_to_worker_processes_when_they_pickle",
    "tests/test_arena_store.py::test_totals_winners_and_rounds_are_built_as_the_games_gave_them",
    "tests/test_referee.py::test_referee_command_answers_over_pipes",
})


def _entry(nodeid: str) -> str | None:
    """The :data:`SLOW` entry that names the test *nodeid*: its function, class or file."""
    path, _, rest = nodeid.partition("::")
    names = rest.partition("[")[0].split("::")
    for depth in range(len(names), 0, -1):
        key = "::".join([path, *names[:depth]])
        if key in SLOW:
            return key
    return path if path in SLOW else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow`` the tests :data:`SLOW` names, but for :data:`FAST_CASES`."""
    used: set[str] = set()
    collected = {item.nodeid.partition("::")[0] for item in items}
    for item in items:
        entry = _entry(item.nodeid)
        if entry is None:
            continue
        used.add(entry)
        if item.nodeid not in FAST_CASES:
            item.add_marker(pytest.mark.slow(SLOW[entry]))
    ids = {item.nodeid for item in items}
    config.stash[_STALE] = sorted(
        entry for entry in [*SLOW, *FAST_CASES]
        if entry not in used and entry not in ids and entry.partition("::")[0] in collected)


_STALE = pytest.StashKey[list[str]]()

#: A test of the fast loop that takes longer than this (seconds) is named at the end of the run.
FAST_BUDGET = 2.5
#: The audit events of a process started (``subprocess``, ``multiprocessing``, ``os``).
_SPAWNS = frozenset({"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn",
                     "os.spawn", "os.exec", "os.system"})
_running: list[str] = []
_spawned: set[str] = set()
_long: dict[str, float] = {}


def _audit(event: str, _arguments: tuple[object, ...]) -> None:
    """Note the test that starts another process (an audit hook: it sees every process)."""
    if event in _SPAWNS and _running and _running[-1].partition("[")[0] not in KEPT_PROCESSES:
        _spawned.add(_running[-1])


def _fast_loop(config: pytest.Config) -> bool:
    """Whether this run leaves the slow tests out (``-m "not slow"``)."""
    return "not slow" in str(config.getoption("markexpr", ""))


def pytest_configure(config: pytest.Config) -> None:
    """In the fast loop, watch for tests that start a process."""
    if _fast_loop(config):
        sys.addaudithook(_audit)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Know which test runs, for :func:`_audit`."""
    _running.append(item.nodeid)
    try:
        return (yield)
    finally:
        _running.pop()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test of the fast loop that takes longer than :data:`FAST_BUDGET`."""
    if report.when == "call" and report.duration > FAST_BUDGET:
        _long[report.nodeid] = report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    """Name the stale entries of :data:`SLOW` and :data:`FAST_CASES`, and the fast loop's tests
    that belong in :data:`SLOW`."""
    stale = config.stash.get(_STALE, [])
    if stale:
        terminalreporter.section("tests/conftest.py: SLOW or FAST_CASES entries that name no test")
        for entry in stale:
            terminalreporter.write_line(entry)
    if not _fast_loop(config) or not (_spawned or _long):
        return
    terminalreporter.section("fast loop: tests that may belong in SLOW (tests/conftest.py)")
    for nodeid in sorted(_spawned):
        terminalreporter.write_line(f"{nodeid}: starts another process")
    for nodeid, seconds in sorted(_long.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{nodeid}: {seconds:.1f} s")
