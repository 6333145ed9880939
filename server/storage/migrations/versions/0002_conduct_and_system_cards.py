"""conduct and system cards

How a session's tables are conducted (screens, the tray's delay, the alert profile) and each
pair's system card (issue 5).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 14:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('screens', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('tray_delay', sa.Float(), nullable=False,
                                      server_default='8.0'))
        batch_op.add_column(sa.Column('profile', sa.String(length=16), nullable=False,
                                      server_default='feb'))
    op.create_table('system_cards',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('participant', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('card', sa.Text(), nullable=False),
    sa.Column('loaded_at', sa.Float(), nullable=False),
    sa.Column('loaded_by', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'participant')
    )


def downgrade() -> None:
    op.drop_table('system_cards')
    with op.batch_alter_table('sessions', schema=None) as batch_op:
        batch_op.drop_column('profile')
        batch_op.drop_column('tray_delay')
        batch_op.drop_column('screens')
