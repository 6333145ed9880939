"""The USB seat-keypad module: key matrices in ``K`` lines, seat LCDs from ``L`` lines."""
