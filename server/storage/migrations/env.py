"""Alembic's entry point: migrations run on the connection that server.storage.db hands over."""

from __future__ import annotations

from alembic import context

from server.storage.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through server.storage.db.Database.upgrade()")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
