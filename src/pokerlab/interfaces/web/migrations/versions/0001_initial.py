"""The first schema of the web table: users, sessions, hands, hand_players, player_stats.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("bankroll", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False, index=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("button", sa.Integer, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("stacks", sa.JSON, nullable=False),
        sa.Column("holes", sa.JSON, nullable=True),
        sa.Column("board", sa.JSON, nullable=True),
        sa.Column("actions", sa.JSON, nullable=True),
        sa.Column("decisions", sa.JSON, nullable=True),
        sa.Column("nets", sa.JSON, nullable=True),
        sa.Column("shown", sa.JSON, nullable=True),
    )
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("net", sa.BigInteger, nullable=False),
        sa.Column("bankroll", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "player_stats",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("vpip", sa.Integer, nullable=False),
        sa.Column("pfr", sa.Integer, nullable=False),
        sa.Column("raises", sa.Integer, nullable=False),
        sa.Column("calls", sa.Integer, nullable=False),
        sa.Column("small_bets", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("player_stats", "hand_players", "hands", "sessions", "users"):
        op.drop_table(table)
