take5rules play --players "ana=cautious,bob=lowest,cyd=random" --seed 3 --log game.json
take5rules replay game.json --seat ana                    # the game as ana saw it
take5rules show game.json --seat ana --out game-ana.html  # one page to publish
