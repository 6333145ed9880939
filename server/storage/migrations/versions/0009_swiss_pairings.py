"""a Swiss's pairings, round by round

``swiss_matches``: who meets whom at which tables in each round of a Swiss teams event, and
each round's bye (issue 17).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 23:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'swiss_matches',
        sa.Column('session_id', sa.Integer(), sa.ForeignKey('sessions.id'), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('match', sa.Integer(), nullable=False),
        sa.Column('home', sa.Integer(), nullable=False),
        sa.Column('away', sa.Integer(), nullable=False),
        sa.Column('paired_at', sa.Float(), nullable=False),
        sa.Column('paired_by', sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint('session_id', 'round', 'match'),
    )


def downgrade() -> None:
    op.drop_table('swiss_matches')
