pip install "take5rules[openspiel]"   # open-spiel 2.0.x
