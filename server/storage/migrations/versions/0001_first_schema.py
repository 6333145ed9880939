"""first schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-21 10:31:39.431445
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('commands',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=16), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('created_by', sa.String(length=64), nullable=True),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('note', sa.String(length=200), nullable=True),
    sa.Column('sent_at', sa.Float(), nullable=True),
    sa.Column('answer_seq', sa.Integer(), nullable=True),
    sa.Column('answer', sa.String(length=16), nullable=True),
    sa.Column('answer_reason', sa.String(length=200), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('commands', schema=None) as batch_op:
        batch_op.create_index('ix_commands_unsent', ['event', 'sent_at'], unique=False)

    op.create_table('corrections',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=True),
    sa.Column('made_by', sa.String(length=64), nullable=False),
    sa.Column('made_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('director_calls',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('seat', sa.String(length=1), nullable=True),
    sa.Column('reason', sa.String(length=32), nullable=False),
    sa.Column('law', sa.String(length=16), nullable=True),
    sa.Column('detail', sa.String(length=200), nullable=True),
    sa.Column('called_at', sa.Float(), nullable=False),
    sa.Column('acknowledged_at', sa.Float(), nullable=True),
    sa.Column('acknowledged_by', sa.String(length=64), nullable=True),
    sa.Column('resolved_at', sa.Float(), nullable=True),
    sa.Column('resolved_by', sa.String(length=64), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event', 'table_no', 'seq', name='uq_director_calls_seq')
    )
    op.create_table('directors',
    sa.Column('username', sa.String(length=64), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.PrimaryKeyConstraint('username')
    )
    op.create_table('events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=16), nullable=False),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('ts', sa.Float(), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.Column('received_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event', 'table_no', 'seq', name='uq_events_table_seq')
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index('ix_events_board', ['event', 'table_no', 'board'], unique=False)

    op.create_table('rejections',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('topic', sa.String(length=200), nullable=False),
    sa.Column('reason', sa.String(length=300), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('releases',
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('released_at', sa.Float(), nullable=False),
    sa.Column('released_by', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('event', 'board')
    )
    op.create_table('results',
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=True),
    sa.Column('ns', sa.Integer(), nullable=True),
    sa.Column('ew', sa.Integer(), nullable=True),
    sa.Column('contract', sa.String(length=8), nullable=True),
    sa.Column('declarer', sa.String(length=1), nullable=True),
    sa.Column('tricks', sa.Integer(), nullable=True),
    sa.Column('lead', sa.String(length=2), nullable=True),
    sa.Column('score_ns', sa.Integer(), nullable=True),
    sa.Column('table_score_ns', sa.Integer(), nullable=True),
    sa.Column('adjusted', sa.String(length=16), nullable=True),
    sa.Column('source_seq', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.Float(), nullable=False),
    sa.Column('corrected_by', sa.String(length=64), nullable=True),
    sa.PrimaryKeyConstraint('event', 'table_no', 'board')
    )
    op.create_table('sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('movement', sa.String(length=16), nullable=False),
    sa.Column('scoring', sa.String(length=16), nullable=False),
    sa.Column('tables', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('boards_per_round', sa.Integer(), nullable=False),
    sa.Column('first_board', sa.Integer(), nullable=False),
    sa.Column('participants', sa.Integer(), nullable=False),
    sa.Column('current_round', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event')
    )
    op.create_table('table_status',
    sa.Column('event', sa.String(length=64), nullable=False),
    sa.Column('table_no', sa.Integer(), nullable=False),
    sa.Column('online', sa.Boolean(), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=True),
    sa.Column('round', sa.Integer(), nullable=True),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('contiguous_seq', sa.Integer(), nullable=False),
    sa.Column('highest_seq', sa.Integer(), nullable=False),
    sa.Column('last_action_at', sa.Float(), nullable=True),
    sa.Column('seen_at', sa.Float(), nullable=True),
    sa.Column('resend_asked_at', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('event', 'table_no')
    )
    op.create_table('deals',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('pbn', sa.String(length=80), nullable=False),
    sa.Column('analysis', sa.Text(), nullable=True),
    sa.Column('analysis_error', sa.String(length=200), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'board')
    )
    op.create_table('participants',
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=64), nullable=False),
    sa.Column('grp', sa.String(length=8), nullable=False),
    sa.Column('names', sa.String(length=200), nullable=False),
    sa.Column('phantom', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['sessions.id'], ),
    sa.PrimaryKeyConstraint('session_id', 'number')
    )


def downgrade() -> None:
    op.drop_table('participants')
    op.drop_table('deals')
    op.drop_table('table_status')
    op.drop_table('sessions')
    op.drop_table('results')
    op.drop_table('releases')
    op.drop_table('rejections')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index('ix_events_board')

    op.drop_table('events')
    op.drop_table('directors')
    op.drop_table('director_calls')
    op.drop_table('corrections')
    with op.batch_alter_table('commands', schema=None) as batch_op:
        batch_op.drop_index('ix_commands_unsent')

    op.drop_table('commands')
