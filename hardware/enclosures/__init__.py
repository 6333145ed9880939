"""The table's printed parts, parametric (build123d): the seat unit (``seat``: a 4x5 membrane
keypad and a 20x4 LCD with its I2C backpack, clipped to the table's edge) and the hub box
(``hubbox``: the Pi with the hub board on it, the card reader's Pico, the buzzer and the two
LEDs). The parts' sizes are named in ``parts`` with where each comes from; ``python3 -m
hardware.build`` writes STL (to print) and STEP (to edit in any CAD) for each. Needs the
``hardware`` extra; the Pi itself never imports this package."""
