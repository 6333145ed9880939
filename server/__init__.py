"""bidbox: server."""
