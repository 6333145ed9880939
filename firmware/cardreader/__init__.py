"""The card reader module: one RFID reader per seat, reporting cards in ``T``/``C`` lines."""
