take5rules play --seed 3 --log my-game.json --lang eo
take5rules validate my-game.json
