"""the tricks transferred for a revoke, apart from the tricks won

A result's ``transferred`` (Law 64A: of its tricks, those moved for a revoke, from declarer's
view; the director confirms or changes it, 64C) (issue 21).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('results') as batch:
        batch.add_column(sa.Column('transferred', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('results') as batch:
        batch.drop_column('transferred')
