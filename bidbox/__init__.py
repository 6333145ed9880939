"""bidbox: bidbox."""
