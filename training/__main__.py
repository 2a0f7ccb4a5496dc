"""Reproduce the shipped policy's weights from scratch: ``python -m training``.

Generates the decisions (:mod:`training.generate`: the search's choices on seeded games), fits
the network by imitation (:mod:`training.train`: first ``cautious``'s choices, then the shares
of the search's visits among its actions) and writes the weights with their metadata
(the seeds, the data, the code version as the git commit) to
``src/take5rules/agents/weights/policy.npz``. Prints the CPU time it took (this process and
its worker processes). The defaults are those of the shipped weights:

    nice -n 10 python -m training --jobs 1

``--decisions PATH`` keeps the generated decisions in PATH, and reuses them when PATH exists
(they are the same for the same ``--games`` and ``--seed``).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from take5rules.agents.policy import save_policy
from training.generate import Decisions, generate
from training.train import Network, TrainingReport, train

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "src" / "take5rules" / "agents" / "weights" / "policy.npz"


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    # The code the weights depend on: the training, the encoding and the players it asks.
    paths = ["training", *(f"src/take5rules/agents/{name}.py" for name in ("policy", "encoding")),
             *(f"src/take5rules/playing/{name}.py" for name in (
                 "ismcts", "bots", "rollouts", "belief", "players", "engine", "stepper"))]
    dirty = subprocess.run(["git", "status", "--porcelain", "--", *paths],
                           cwd=ROOT, capture_output=True, text=True, check=False, timeout=30)
    return done.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _keeper(folder: Path | None, stage: str, decisions: int, before: int, seed: int,
            code: str) -> Callable[[int, Network, TrainingReport], None] | None:
    """What saves the network after each epoch of a stage in *folder* (nothing without one).

    The files are numbered across the stages (*before* epochs came first): ``epoch-<k>.npz``,
    the metadata saying the epoch, the stage (whose labels: ``cautious`` or ``best``), the
    decisions it trains on and the held-out accuracy then; *code* is the code's version.
    """
    if folder is None:
        return None
    kept = folder  # not None, in the closure too
    kept.mkdir(parents=True, exist_ok=True)

    def keep(epoch: int, network: Network, report: TrainingReport) -> None:
        number = before + epoch
        save_policy(network.policy({
            "seed": seed, "code": code,
            "data": f"training.generate, seed {seed}: {decisions} decisions labelled by {stage}",
            "epoch": number, "stage": stage, "decisions": decisions,
            "held_out_accuracy": round(report.held_out_accuracy[-1], 4)
            if report.held_out_accuracy else None,
        }), kept / f"epoch-{number}.npz")
    return keep


def main(argv: Sequence[str] | None = None) -> None:
    """Generate, train, export; print the CPU time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=800,
                        help="games of decisions labelled by best")
    parser.add_argument("--first-games", type=int, default=750,
                        help="games of decisions labelled by cautious (the first lessons)")
    parser.add_argument("--seed", type=int, default=1, help="the data's and training's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the games")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--first-epochs", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--rate", type=float, default=2e-3,
                        help="the second stage's first learning rate (it falls to a tenth)")
    parser.add_argument("--decisions", type=Path, default=None,
                        help="keep (or reuse) the decisions labelled by best in this .npz")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--checkpoints", type=Path, default=None,
                        help="write the network after every epoch in this folder, as "
                             "epoch-<k>.npz (the strength benchmark's training curve)")
    arguments = parser.parse_args(argv)
    wall, cpu = time.monotonic(), _cpu_seconds()
    code = _commit()  # the version of the code that trains (asked of git once)
    if arguments.decisions is not None and arguments.decisions.exists():
        decisions = Decisions.load(arguments.decisions)
        print(f"reused {len(decisions)} decisions from {arguments.decisions}")
    else:
        print(f"generating the decisions of {arguments.games} games (seed {arguments.seed})")
        decisions = generate(arguments.games, arguments.seed, arguments.jobs, progress=True)
        if arguments.decisions is not None:
            decisions.save(arguments.decisions)
    first = generate(arguments.first_games, arguments.seed, arguments.jobs, teacher="cautious")
    generated = _cpu_seconds() - cpu
    print(f"first lessons: {len(first)} decisions labelled by cautious")
    first_keeper = _keeper(arguments.checkpoints, "cautious", len(first), 0, arguments.seed,
                           code)
    network, report = train(first.observations, first.legal, first.actions,
                            hidden=arguments.hidden, epochs=arguments.first_epochs,
                            decay=1e-5, seed=arguments.seed, log=True, after_epoch=first_keeper)
    del first
    print(f"then {len(decisions)} decisions labelled by best")
    keeper = _keeper(arguments.checkpoints, "best", len(decisions), arguments.first_epochs,
                     arguments.seed, code)
    network, report = train(decisions.observations, decisions.legal, decisions.actions,
                            targets=decisions.targets, epochs=arguments.epochs,
                            rate=arguments.rate, decay=1e-5,
                            seed=arguments.seed, network=network, log=True, after_epoch=keeper)
    metadata = {
        "seed": arguments.seed,
        "data": (f"training.generate, seed {arguments.seed}: first the choices of cautious at "
                 f"every decision of {arguments.first_games} games, then the shares of the "
                 f"visits of best (ISMCTS, 350 iterations) at every decision of "
                 f"{arguments.games} games "
                 f"({len(decisions)} decisions)"),
        "code": code,
        "training": (f"imitation, numpy Adam, rows shuffled: {arguments.first_epochs} epochs "
                     f"at 1e-3 on cautious's choices, then {arguments.epochs} epochs at "
                     f"{arguments.rate:g} on the shares of best's visits; minibatches of 256, "
                     f"10% held out"),
        "held_out_accuracy": round(report.held_out_accuracy[-1], 4),
        "held_out_loss": round(report.held_out_loss[-1], 4),
    }
    path = save_policy(network.policy(metadata), arguments.out)
    total = _cpu_seconds() - cpu
    print(f"wrote {path} ({path.stat().st_size} bytes); CPU time {total:.0f} s "
          f"({generated:.0f} s the data, {total - generated:.0f} s the training), "
          f"{time.monotonic() - wall:.0f} s wall")


if __name__ == "__main__":
    main()
