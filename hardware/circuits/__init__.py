"""The table's boards as circuits described in code (SKiDL): the hub board at the Pi
(``hub``) and the card reader module (``cardreader``). ``python3 -m hardware.build`` checks
them (ERC, and against the pin maps the drivers and the firmware read) and writes their KiCad
netlists and bills of materials. Needs the ``hardware`` extra; the Pi itself never imports
this package."""
