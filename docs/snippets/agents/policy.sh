take5rules arena policy cautious cautious cautious --games 200 --baseline cautious
