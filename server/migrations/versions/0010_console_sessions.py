"""the console's sessions, on the server

``console_sessions``: each sign-in to the console, by a hash of the token its cookie holds,
and when it ended. Signing out ends it here, so a copy of the cookie no longer opens the
console (issue 27).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 11:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
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


def downgrade() -> None:
    op.drop_table('console_sessions')
