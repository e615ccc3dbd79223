"""The probability that each fact is right: a logistic model whose coefficients are ``confidence.json``."""
