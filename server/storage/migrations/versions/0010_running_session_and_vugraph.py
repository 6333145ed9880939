"""the running session and the public vugraph's rule

``sessions.selected_at``: when the director made the session the one the server runs (null:
when it was created); the running session is the one chosen last, the others stay readable
and exportable. ``sessions.vugraph``: what the public vugraph shows, ``released`` boards
only (the default), ``off``, or ``live`` for a single match (issue 32).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('selected_at', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('vugraph', sa.String(length=8), nullable=False,
                                      server_default='released'))


def downgrade() -> None:
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.drop_column('vugraph')
        batch_op.drop_column('selected_at')
