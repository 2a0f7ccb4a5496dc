"""The strength page's new tables (docs/measured.py): wins, the think-time and training curves.

Each table is made from a small results file written here, so that the expected cells are typed
out by hand: the numbers with Python's own formatting and each locale's separators, never with
Babel. A run without training checkpoints writes a sentence instead of an empty table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGUAGES = ("en", "fr", "bg", "it", "eo")
sys.path.insert(0, str(DOCS))

from measured import FigureError, figure, table  # noqa: E402

#: The percent sign as each locale writes it after a number.
PERCENT = {"en": "%", "fr": "\N{NO-BREAK SPACE}%", "bg": "%", "it": "%", "eo": "%"}
POINT = {"en": ".", "fr": ",", "bg": ",", "it": ",", "eo": ","}

LABELS = {"iterations": "N", "ms-mean": "MS", "ms-median": "MED", "heads-per-deal": "H",
          "against-cautious": "VS", "epoch": "E", "stage": "S", "decisions": "D",
          "deals": "DL", "stage-cautious": "as cautious ({deals} deals)", "stage-best": "as best",
          "no-think": "NO THINK", "no-training": "NO TRAINING", "player": "P", "wins-95": "W"}


def _results(tmp_path: Path, **figures: object) -> Path:
    (tmp_path / "strength.json").write_text(json.dumps(figures), encoding="utf-8")
    return tmp_path


def test_pct_interval_writes_a_share_and_its_interval_in_each_locale(tmp_path: Path) -> None:
    results = _results(tmp_path, share=[0.25, 0.125, 0.5])
    for language in LANGUAGES:
        sign, point = PERCENT[language], POINT[language]
        assert figure(results, "strength share pct-interval", language) == (
            f"25{point}0{sign} (12{point}5{sign} \N{EN DASH} 50{point}0{sign})")
    with pytest.raises(FigureError, match=r"\[estimate, low, high\]"):
        figure(_results(tmp_path, share=0.25), "strength share pct-interval", "en")


def test_the_training_table_shows_each_checkpoint(tmp_path: Path) -> None:
    training = [
        {"epoch": 1, "stage": "cautious", "decisions": 148513, "deals": 16, "mean_ms": 0.21,
         "per_deal": 14.5, "difference": [1.25, -0.5, 3.0]},
        {"epoch": 12, "stage": "best", "decisions": 41348, "deals": 17, "mean_ms": 1.5,
         "per_deal": 12.0, "difference": [-1.5, -2.25, -0.75]},
    ]
    made = table(_results(tmp_path, training=training), "strength-training", "fr",
                 LABELS.__getitem__).splitlines()
    assert made == [
        "| E | S | D | DL | MS | H | VS |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
        "| 1 | as cautious (16 deals) | 148\N{NARROW NO-BREAK SPACE}513 | 16 | 0,210 | 14,50 | "
        "+1,25 (-0,50 \N{EN DASH} +3,00) |",
        "| 12 | as best | 41\N{NARROW NO-BREAK SPACE}348 | 17 | 1,5 | 12,00 | "
        "-1,50 (-2,25 \N{EN DASH} -0,75) |",
    ]


def test_a_run_without_checkpoints_says_so_instead_of_an_empty_table(tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    bare.mkdir()
    for results in (_results(tmp_path, training=[]), _results(bare, sets=2)):
        assert table(results, "strength-training", "en", LABELS.__getitem__) == "NO TRAINING\n"
    assert table(_results(tmp_path, think=[]), "strength-think", "en",
                 LABELS.__getitem__) == "NO THINK\n"
    with pytest.raises(FigureError, match="does not exist"):  # no results at all stays an error
        table(tmp_path / "nowhere", "strength-training", "en", LABELS.__getitem__)


def test_the_think_table_shows_each_iteration_count(tmp_path: Path) -> None:
    think = [{"iterations": count, "mean_ms": ms, "median_ms": ms / 2, "per_deal": heads,
              "difference": [heads - 13, heads - 14, heads - 12]}
             for count, ms, heads in ((25, 2.0, 14.0), (700, 61.4, 9.5))]
    made = table(_results(tmp_path, think=think), "strength-think", "en",
                 LABELS.__getitem__).splitlines()
    assert made[2:] == ["| 25 | 2.0 | 1.0 | 14.00 | +1.00 (+0.00 \N{EN DASH} +2.00) |",
                        "| 700 | 61.4 | 30.7 | 9.50 | -3.50 (-4.50 \N{EN DASH} -2.50) |"]


def test_every_strength_page_labels_the_new_columns_and_sentences() -> None:
    import yaml  # type: ignore[import-untyped]

    needed = {"wins-95", "epoch", "stage", "stage-cautious", "stage-best", "decisions", "deals",
              "no-think", "no-training"}
    for language in LANGUAGES:
        text = (DOCS / language / "strength.md").read_text(encoding="utf-8")
        labels = yaml.safe_load(text.split("---\n", 2)[1])["labels"]
        assert needed <= set(labels), (language, needed - set(labels))
        assert "9ad7ec8" not in text  # the run's commit comes from the results file
        for picture in ("strength.svg", "strength-think.svg", "strength-training.svg"):
            assert f"]({picture})" in text, (language, picture)
            assert (DOCS / language / picture).exists(), (language, picture)
