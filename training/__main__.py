"""Reproduce the shipped policy's weights from scratch: ``python -m training``.

Generates the decisions (:mod:`training.generate`: the search's choices on seeded games), fits
the network by imitation (:mod:`training.train`: first ``cautious``'s choices, then the shares
of the search's visits among its actions), then follows it (DAgger): in each of
``--follow-rounds`` rounds, ``--follow-games`` more games are seated mostly by the network
just trained, the search labels every decision in them, and the network is trained again
from its first lessons on all the search's decisions so far. It writes the weights with their
metadata (the seeds, the data, the code version as the git commit) to
``src/take5rules/agents/weights/policy.npz`` and prints the CPU time it took (this process and
its worker processes). The defaults are those of the shipped weights:

    nice -n 10 python -m training --jobs 1

``--decisions PATH`` keeps the generated decisions in PATH (and each round's in
``PATH-follow<k>.npz`` beside it), and reuses them when they exist (they are the same for the
same arguments).
"""

from __future__ import annotations

import argparse
import copy
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from take5rules.agents.policy import save_policy
from training.generate import FOLLOW_ACTORS, Decisions, generate
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


def _train(spent: list[float], *args: Any, **kwargs: Any) -> tuple[Network, TrainingReport]:
    """:func:`training.train.train`, its CPU seconds appended to *spent* (the run's stages)."""
    start = _cpu_seconds()
    try:
        return train(*args, **kwargs)
    finally:
        spent.append(_cpu_seconds() - start)


def _follow(network: Network, round_: int, arguments: argparse.Namespace) -> Decisions:
    """The decisions of round *round_*'s games, seated mostly by *network* (DAgger).

    Games ``(round_ - 1) * n`` to ``round_ * n - 1`` of the stream of games that follow a
    network (:data:`training.generate.FOLLOW_ACTORS`), ``n`` the ``--follow-games``; kept in
    (and reused from) ``<decisions>-follow<round_>.npz`` beside ``--decisions`` if given.
    """
    kept = None
    if arguments.decisions is not None:
        kept = arguments.decisions.with_name(
            f"{arguments.decisions.stem}-follow{round_}{arguments.decisions.suffix}")
        if kept.exists():
            print(f"reused the decisions of follow round {round_} from {kept}")
            return Decisions.load(kept)
    count = arguments.follow_games
    with tempfile.TemporaryDirectory() as folder:
        weights = save_policy(network.policy({"seed": arguments.seed, "data": "a round",
                                              "code": "training"}),
                              Path(folder) / "network.npz")
        print(f"follow round {round_}: {count} games seated mostly by the network")
        followed = generate(round_ * count, arguments.seed, arguments.jobs,
                            first=(round_ - 1) * count, actors=FOLLOW_ACTORS, weights=weights)
    if kept is not None:
        followed.save(kept)
    return followed


def _keeper(folder: Path | None, stage: str, decisions: int, before: int, seed: int,
            code: str, round_: int | None = None,
            ) -> Callable[[int, Network, TrainingReport], None] | None:
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
            **({} if round_ is None else {"round": round_}),
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
    parser.add_argument("--head", type=int, default=32,
                        help="units of the card head (0: none)")
    parser.add_argument("--first-epochs", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--rate", type=float, default=2e-3,
                        help="the second stage's first learning rate (it falls to a tenth)")
    parser.add_argument("--decisions", type=Path, default=None,
                        help="keep (or reuse) the decisions labelled by best in this .npz")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--follow-rounds", type=int, default=1,
                        help="rounds of games seated by the network, labelled by best")
    parser.add_argument("--follow-games", type=int, default=300,
                        help="games a round of following the network")
    parser.add_argument("--checkpoints", type=Path, default=None,
                        help="write the network after every epoch in this folder, as "
                             "epoch-<k>.npz (the strength benchmark's training curve)")
    arguments = parser.parse_args(argv)
    wall, cpu = time.monotonic(), _cpu_seconds()
    code = _commit()  # the version of the code that trains (asked of git once)
    spent: list[float] = []  # the CPU seconds of each training stage of this run
    if arguments.decisions is not None and arguments.decisions.exists():
        decisions = Decisions.load(arguments.decisions)
        print(f"reused {len(decisions)} decisions from {arguments.decisions}")
    else:
        print(f"generating the decisions of {arguments.games} games (seed {arguments.seed})")
        decisions = generate(arguments.games, arguments.seed, arguments.jobs, progress=True)
        if arguments.decisions is not None:
            decisions.save(arguments.decisions)
    first = generate(arguments.first_games, arguments.seed, arguments.jobs, teacher="cautious")
    print(f"first lessons: {len(first)} decisions labelled by cautious")
    first_keeper = _keeper(arguments.checkpoints, "cautious", len(first), 0, arguments.seed,
                           code)
    network, report = _train(spent, first.observations, first.legal, first.actions,
                            hidden=arguments.hidden, head=arguments.head,
                            epochs=arguments.first_epochs,
                            decay=1e-5, seed=arguments.seed, log=True, after_epoch=first_keeper)
    del first
    lessons = copy.deepcopy(network)  # the first lessons, where each later stage starts
    print(f"then {len(decisions)} decisions labelled by best")
    keeper = _keeper(arguments.checkpoints, "best", len(decisions), arguments.first_epochs,
                     arguments.seed, code)
    network, report = _train(spent, decisions.observations, decisions.legal, decisions.actions,
                             targets=decisions.targets, epochs=arguments.epochs,
                             rate=arguments.rate, decay=1e-5,
                             seed=arguments.seed, network=network, log=True, after_epoch=keeper)
    for round_ in range(1, arguments.follow_rounds + 1):
        followed = _follow(network, round_, arguments)
        decisions = Decisions.join([decisions, followed])
        print(f"follow round {round_}: {len(followed)} decisions of games seated by the "
              f"network; training again on {len(decisions)}")
        before = arguments.first_epochs + round_ * arguments.epochs
        keeper = _keeper(arguments.checkpoints, "follow", len(decisions), before,
                         arguments.seed, code, round_)
        network, report = _train(spent, decisions.observations, decisions.legal, decisions.actions,
                                 targets=decisions.targets, epochs=arguments.epochs,
                                 rate=arguments.rate, decay=1e-5, seed=arguments.seed,
                                 network=copy.deepcopy(lessons), log=True, after_epoch=keeper)
    metadata = {
        "seed": arguments.seed,
        "data": (f"training.generate, seed {arguments.seed}: first the choices of cautious at "
                 f"every decision of {arguments.first_games} games, then the shares of the "
                 f"visits of best (ISMCTS, 350 iterations) at every decision of "
                 f"{arguments.games} games, and of "
                 f"{arguments.follow_rounds} x {arguments.follow_games} games seated mostly by "
                 f"the network of the round before ({len(decisions)} decisions)"),
        "code": code,
        "training": (f"imitation, numpy Adam, rows shuffled: {arguments.first_epochs} epochs "
                     f"at 1e-3 on cautious's choices, then {arguments.epochs} epochs at "
                     f"{arguments.rate:g} on the shares of best's visits, again from the "
                     f"first lessons after each round of following the network; minibatches "
                     f"of 256, 10% held out"),
        "held_out_accuracy": round(report.held_out_accuracy[-1], 4),
        "held_out_loss": round(report.held_out_loss[-1], 4),
    }
    path = save_policy(network.policy(metadata), arguments.out)
    total = _cpu_seconds() - cpu
    fitting = sum(spent)  # the training's CPU seconds; the rest is the data
    print(f"wrote {path} ({path.stat().st_size} bytes); CPU time {total:.0f} s "
          f"({total - fitting:.0f} s the data, {fitting:.0f} s the training), "
          f"{time.monotonic() - wall:.0f} s wall")


if __name__ == "__main__":
    main()
