"""Pure game engines: standard library only, randomness passed in, exact numbers out.

Nothing here imports Django (see ruff.toml beside this file); the web layer calls these from
forms and reducers.
"""
