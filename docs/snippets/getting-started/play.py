from take5rules import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer, play_game
from take5rules.text import narrate

seats: dict[str, Player] = {"ana": CautiousPlayer(), "bob": LowestCardPlayer(),
                            "cyd": RandomPlayer(7)}
for event in play_game(seats, seed=1):
    print(narrate(event, "it"))
