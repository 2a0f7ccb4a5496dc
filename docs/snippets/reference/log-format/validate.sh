take5rules validate my-game.json
