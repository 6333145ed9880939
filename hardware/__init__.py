"""bidbox: hardware."""
