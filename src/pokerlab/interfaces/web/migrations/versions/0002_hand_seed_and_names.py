"""Each hand's deck seed (an audit re-deals the hand from it), and names unique whatever their case.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("seed", sa.BigInteger, nullable=True))
    op.create_index("ix_users_name_lower", "users", [sa.text("lower(name)")], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_name_lower", "users")
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("seed")
