"""The simulation: the real table daemon on simulated hardware, and the people who play at it.

- ``sim.simtable``: one table (the daemon, keypads on gpiozero's MockFactory, the card reader
  on pyserial's ``loop://``, optionally its uplink);
- ``sim.recorded``: players who replay a recorded board through the keys and the reader;
- ``sim.players``: seeded deals and four bots who bid and play whole boards;
- ``sim.simulation``: many simulated tables at once, each playing a share of a file of records.

The demo, ``bidbox simulate``, ``bidbox table --sim``, the load test, the benchmarks and the
tests use it. The table daemon (``tabled``) never imports it: a Pi runs no simulation."""
