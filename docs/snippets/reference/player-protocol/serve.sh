take5rules player best                                     # answers the protocol on stdin/stdout
take5rules arena cautious "cmd:take5rules player best"     # the same results as: arena cautious best
