import numpy as np

from take5rules.agents.pettingzoo_env import Take5Env
from take5rules.variants import Rules

env = Take5Env(players=4, rules=Rules(threshold=66), seed=1, render_mode="ansi", language="en")
env.reset(seed=1)
for _ in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        env.step(None)
        continue
    legal = np.flatnonzero(observation["action_mask"])
    env.step(int(np.random.choice(legal)))
print(env.render())
