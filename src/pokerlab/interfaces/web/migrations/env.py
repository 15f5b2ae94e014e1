"""Alembic's environment for the web table: runs on the connection `pokerlab.interfaces.web.db.migrate`
hands it (no alembic.ini, no URL of its own)."""

from alembic import context

from pokerlab.interfaces.web.db import Base


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:  # inside an Alembic run, not merely imported (doctests)
    run_migrations()
