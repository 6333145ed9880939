"""The ``bidbox`` command: one entry point for the table, the server and the tools."""
