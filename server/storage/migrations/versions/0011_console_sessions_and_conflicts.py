"""the console's sessions, on the server; events that conflict with stored ones

``console_sessions``: each sign-in to the console, by a hash of the token its cookie holds,
and when it ended. Signing out ends it here, so a copy of the cookie no longer opens the
console (issue 27).

``event_conflicts``: an event that came with the number of a stored one of its table but other
content (two devices publishing with one table's login), kept beside the stored one until the
director chooses which stands (issue 27).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 11:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'console_sessions',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('username', sa.String(length=64), nullable=False),
        sa.Column('started_at', sa.Float(), nullable=False),
        sa.Column('ended_at', sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint('token_hash'),
    )
    op.create_table(
        'event_conflicts',
        sa.Column('event', sa.String(length=64), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('type', sa.String(length=16), nullable=False),
        sa.Column('board', sa.Integer(), nullable=True),
        sa.Column('ts', sa.Float(), nullable=False),
        sa.Column('data', sa.Text(), nullable=False),
        sa.Column('received_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('event', 'table_no', 'seq'),
    )


def downgrade() -> None:
    op.drop_table('event_conflicts')
    op.drop_table('console_sessions')
