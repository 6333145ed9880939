"""sections and the arrow-switch

A session of several sections, each with its own movement, or one Mitchell that switches
arrows in some rounds; and whether a board is scored within its section or across the field
(issue 17).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 23:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sessions') as batch:
        batch.add_column(sa.Column('scope', sa.String(length=8), server_default='section',
                                   nullable=False))
    # A section's ranking group is "A NS", or a club's "bilbao EW" at a centre (issue 19).
    with op.batch_alter_table('participants') as batch:
        batch.alter_column('grp', existing_type=sa.String(length=8), type_=sa.String(length=24),
                           existing_nullable=False)
    op.create_table('sections',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('letter', sa.String(length=16), nullable=False),
    sa.Column('movement', sa.String(length=16), nullable=False),
    sa.Column('pairs', sa.Integer(), nullable=False),
    sa.Column('boards_per_round', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('first_board', sa.Integer(), nullable=False),
    sa.Column('arrow_rounds', sa.String(length=200), server_default='', nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'position')
    )


def downgrade() -> None:
    op.drop_table('sections')
    with op.batch_alter_table('participants') as batch:
        batch.alter_column('grp', existing_type=sa.String(length=24), type_=sa.String(length=8),
                           existing_nullable=False)
    with op.batch_alter_table('sessions') as batch:
        batch.drop_column('scope')
