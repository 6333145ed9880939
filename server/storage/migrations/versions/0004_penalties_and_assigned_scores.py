"""penalties, scoring rules and assigned scores

Procedural and disciplinary penalties (Laws 90, 91), the session's figures for artificial
adjusted scores (Law 12C2), and weighted and split assigned scores (Law 12C1(c), (d))
(issue 18).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 18:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('penalties',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('participant', sa.Integer(), nullable=False),
    sa.Column('law', sa.String(length=4), nullable=False),
    sa.Column('unit', sa.String(length=8), nullable=False),
    sa.Column('amount', sa.Float(), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=False),
    sa.Column('given_by', sa.String(length=64), nullable=False),
    sa.Column('given_at', sa.Float(), nullable=False),
    sa.Column('withdrawn_by', sa.String(length=64), nullable=True),
    sa.Column('withdrawn_at', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('scoring_rules',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('avg_plus', sa.Integer(), server_default='60', nullable=False),
    sa.Column('avg', sa.Integer(), server_default='50', nullable=False),
    sa.Column('avg_minus', sa.Integer(), server_default='40', nullable=False),
    sa.Column('session_percent', sa.Boolean(), server_default='0', nullable=False),
    sa.Column('set_by', sa.String(length=64), nullable=True),
    sa.Column('set_at', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id')
    )
    op.create_table('assigned_scores',
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('ns', sa.Text(), nullable=False),
    sa.Column('ew', sa.Text(), nullable=False),
    sa.Column('given_by', sa.String(length=64), nullable=False),
    sa.Column('given_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('event', 'table_no', 'board')
    )


def downgrade() -> None:
    op.drop_table('assigned_scores')
    op.drop_table('scoring_rules')
    op.drop_table('penalties')
