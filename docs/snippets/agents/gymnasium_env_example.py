from take5rules.agents.gymnasium_env import Take5GymEnv

env = Take5GymEnv(opponents=["cautious", "lowest", "random"])
observation, info = env.reset(seed=7)
env.action_space.seed(7)
done = False
while not done:
    action = env.action_space.sample()  # a legal action
    observation, reward, done, truncated, info = env.step(action)
print(info["totals"])
