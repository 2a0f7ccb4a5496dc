import numpy as np

from take5rules.agents import batch

rng = np.random.default_rng(7)
state = batch.deal(rng, games=10_000, players=4)
scores = batch.play_round(
    state, [batch.cautious_card, batch.random_card, batch.random_card, batch.random_card],
    batch.cheapest_row, rng,
)
print(scores.mean(axis=0))        # mean penalty of each seat over 10,000 rounds
games = batch.play_games(rng, 2_000, [batch.cautious_card] + [batch.random_card] * 3,
                         batch.cheapest_row)
print(games.winners.mean(axis=0))  # how often each seat wins (a tie wins together)
