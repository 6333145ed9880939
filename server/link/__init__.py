"""The link to the tables: the MQTT worker and the command outbox, ingest (decode, store, project),
the live fan-out to the pages, setting a session up and starting its rounds, the round clock,
the tables as the director sees them, the director's calls and corrections, events that came
twice, what a table shows after a board, and the centre of a simultaneous."""
