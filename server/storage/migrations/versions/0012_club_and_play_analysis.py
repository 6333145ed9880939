"""the club's identity, and the double-dummy analysis of each table's play

``club``: one row, the club's name and its federation club number, set once for every
session's exports (USEBIO's CLUB). ``play_analysis``: each table's play of a board analysed
card by card in the background (server/outputs/playanalysis.py), for the hand viewer (issue 31).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'club',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('number', sa.String(length=40), nullable=False),
        sa.Column('changed_at', sa.Float(), nullable=False),
        sa.Column('changed_by', sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_table(
        'play_analysis',
        sa.Column('session_id', sa.Integer(), sa.ForeignKey('sessions.id'), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('board', sa.Integer(), nullable=False),
        sa.Column('play', sa.Text(), nullable=False),
        sa.Column('analysis', sa.Text(), nullable=True),
        sa.Column('error', sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint('session_id', 'table_no', 'board'),
    )


def downgrade() -> None:
    op.drop_table('play_analysis')
    op.drop_table('club')
