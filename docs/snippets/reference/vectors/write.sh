take5rules vectors --out vectors
