from dask.distributed import Client, LocalCluster

from take5rules.agents.arena import run_arena

with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
    result = run_arena(["greedy", "cautious", "lowest"], games=300, seed=7,
                       executor=client.get_executor())
for rating in result.report("cautious").ratings:
    mean, low, high = rating.deal_difference
    print(f"{rating.player:>8}: {rating.per_deal:5.2f} a deal, "
          f"{mean:+.2f} [{low:+.2f}, {high:+.2f}] against cautious")
