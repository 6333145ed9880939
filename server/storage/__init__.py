"""Storage: the database and its schema, and the Alembic migrations that make it."""
