"""The event's set-up: the session and its movement, how it is scored, the player register, the
pairs' system cards, and the session the server runs."""
