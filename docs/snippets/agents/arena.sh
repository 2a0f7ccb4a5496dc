take5rules arena best cautious cautious cautious --games 200 --jobs 2 --baseline cautious
