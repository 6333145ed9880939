"""Benchmarks: not tests. `python3 -m bench` runs them all and prints figures and ratios."""
