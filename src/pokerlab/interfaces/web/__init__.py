"""The web table: people play the bots and each other in a browser, with accounts, bankrolls
that carry over and qualifying levels (Billings et al. 1998 §5).

`pokerlab serve` starts it (`pokerlab.interfaces.web.server`); docs/web-protocol.md is the contract between
the server and its page. The modules, one idea each: `config` (what a server runs with), `db` (tables and
migrations), `accounts` (passwords, sessions, rate limits), `frames` (what each seat may see),
`tables` (the table runtime driving the engine), `store` (writing finished hands in one transaction),
`history` (replays, PHH, leaderboard, bankroll curves), `app` (the FastAPI application).

This package needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic, argon2-cffi); nothing outside
it imports them, so ``import pokerlab`` and the other commands never load them.
"""
