"""bidbox: firmware."""
