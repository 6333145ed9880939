"""what the tables show after a board

``after_board``: per session, the director's switches for the pages a table's displays show
once a board's result is confirmed (server/link/afterboard.py, issue 32): the pair's score on the
board, the traveller, the double-dummy line and par. A session without a row shows them all,
each within the release rule.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 15:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'after_board',
        sa.Column('session_id', sa.Integer(), sa.ForeignKey('sessions.id'), nullable=False),
        sa.Column('score', sa.Boolean(), nullable=False),
        sa.Column('traveller', sa.Boolean(), nullable=False),
        sa.Column('record', sa.Boolean(), nullable=False),
        sa.Column('changed_at', sa.Float(), nullable=False),
        sa.Column('changed_by', sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint('session_id'),
    )


def downgrade() -> None:
    op.drop_table('after_board')
