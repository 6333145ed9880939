"""The table: event journal, phases, views, wire format and the daemon."""
