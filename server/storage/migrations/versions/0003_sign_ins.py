"""sign-in attempts

Every attempt to sign in to the console, for throttling password guesses and telling the
director how many failed (issue 20, server/pages/throttle.py).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 20:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('sign_ins',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('outcome', sa.String(length=8), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('sign_ins', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sign_ins_address'), ['address'], unique=False)
        batch_op.create_index(batch_op.f('ix_sign_ins_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_sign_ins_username'), ['username'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('sign_ins', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sign_ins_username'))
        batch_op.drop_index(batch_op.f('ix_sign_ins_at'))
        batch_op.drop_index(batch_op.f('ix_sign_ins_address'))
    op.drop_table('sign_ins')
