from take5rules import CautiousPlayer, Player, play_game
from take5rules.agents.policy import PolicyPlayer, load_policy
from take5rules.events import GameOver

policy = load_policy()  # the shipped weights, checked; load_policy("my.npz") for your own
print(policy.widths)  # (1537, 256, 256, 109)
seats: dict[str, Player] = {"net": PolicyPlayer(policy), "ana": CautiousPlayer(),
                            "bob": CautiousPlayer(), "cyd": CautiousPlayer()}
for event in play_game(seats, seed=3):
    if isinstance(event, GameOver):
        print(dict(event.totals), event.winners)
