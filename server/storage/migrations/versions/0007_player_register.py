"""the player register

The club's register of players (number, name, federation licence, visitor) and each
session's copy of it, taken when the session is created (issue 17, server/setup/player_register.py).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 22:45:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('members',
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('licence', sa.String(length=20), nullable=True),
    sa.Column('visitor', sa.Boolean(), server_default='0', nullable=False),
    sa.Column('added_at', sa.Float(), nullable=False),
    sa.Column('added_by', sa.String(length=64), nullable=True),
    sa.PrimaryKeyConstraint('number')
    )
    op.create_table('session_players',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('licence', sa.String(length=20), nullable=True),
    sa.Column('visitor', sa.Boolean(), server_default='0', nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'number')
    )


def downgrade() -> None:
    op.drop_table('session_players')
    op.drop_table('members')
