import random

from take5rules import Game, Phase

game = Game(["ana", "bob"], seed=1)
rng = random.Random(2)
while game.phase is not Phase.OVER:
    seat = game.to_move[0]
    for event in game.act(seat, rng.choice(game.legal(seat))):
        print(event.kind)
print(game.result)
