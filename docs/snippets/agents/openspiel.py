import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import take5rules.agents.openspiel_game  # noqa: F401 (it registers the game take5)

game = pyspiel.load_game("take5", {"players": 3, "variant": "standard", "threshold": 66})
rng = np.random.RandomState(0)
bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0,
                       max_simulations=20, random_state=rng)
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choice(actions, p=probs))
    else:
        state.apply_action(bot.step(state))
print(state.returns())            # each seat's bull heads, negated
