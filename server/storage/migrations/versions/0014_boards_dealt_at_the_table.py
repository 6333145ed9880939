"""boards dealt at the table

``sessions.dealing``: who deals the session's boards, ``server`` (the hand records imported
or dealt by the server, the default) or ``table`` (shuffled and dealt at the table: the first
table to play a board captures its deal, issue 32). ``deals.captured_table`` and
``deals.captured_at``: for a deal captured so, the table that scanned it and when.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 15:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dealing', sa.String(length=8), nullable=False,
                                      server_default='server'))
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('captured_table', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('captured_at', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_column('captured_at')
        batch_op.drop_column('captured_table')
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.drop_column('dealing')
