"""the round clock

Every round's length and warning on the session, and each round's own clock: its length,
its end on the server's clock, the minutes the director added (issue 17).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sessions') as batch:
        batch.add_column(sa.Column('round_minutes', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('warning_minutes', sa.Integer(), nullable=True))
    op.create_table('round_clocks',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=True),
    sa.Column('warning', sa.Integer(), nullable=True),
    sa.Column('started_at', sa.Float(), nullable=True),
    sa.Column('ends_at', sa.Float(), nullable=True),
    sa.Column('extended', sa.Integer(), server_default='0', nullable=False),
    sa.Column('set_by', sa.String(length=64), nullable=True),
    sa.Column('set_at', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'round')
    )


def downgrade() -> None:
    op.drop_table('round_clocks')
    with op.batch_alter_table('sessions') as batch:
        batch.drop_column('warning_minutes')
        batch.drop_column('round_minutes')
