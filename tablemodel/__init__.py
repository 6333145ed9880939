"""The table's model, shared by the table daemon (tabled) and the server: the wire format
of events and commands, the table state they build, the ruling kinds, the round clock, the
running session, what each viewer may see, and the words and texts of the table in Spanish
and English. Above the laws engine (laws), below the daemon and the server; it imports
neither (docs/architecture.md, "Floors").
"""
