"""run_arena on any concurrent.futures.Executor: a local Dask cluster gives the same results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from take5rules.agents.arena import run_arena


class _Counting(ThreadPoolExecutor):
    submitted = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(*args, **kwargs)


def test_any_executor_plays_the_same_games() -> None:
    alone = run_arena(["cautious", "lowest", "greedy"], games=6, seed=3)
    with _Counting(2) as executor:
        pooled = run_arena(["cautious", "lowest", "greedy"], games=6, seed=3, executor=executor)
    assert executor.submitted >= 1
    assert pooled.totals == alone.totals and pooled.rounds == alone.rounds


def test_a_local_dask_cluster_plays_the_same_games() -> None:
    distributed = pytest.importorskip("dask.distributed")
    alone = run_arena(["cautious", "random"], games=4, seed=5)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        clustered = run_arena(["cautious", "random"], games=4, seed=5,
                              executor=client.get_executor())
    assert clustered.totals == alone.totals
    assert clustered.report("random") == alone.report("random")
