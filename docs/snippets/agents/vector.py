from take5rules.agents.batch import vector

state = vector.init(seed=1, batch=1_000, players=4)
while not state.terminated.all():
    state = vector.step(state, state.legal_action_mask.argmax(axis=1))  # lowest legal action
print(state.returns.mean(axis=0))  # minus the mean total of each seat
