"""The settings of the sites the tests start (tests/server.py): the site's own, with one change.

Passwords are hashed with a fast hasher. The site's PBKDF2 takes about 0.4 s of CPU a hash on the
2-core machine, by design; the journeys sign up or log in some 150 people, about a minute of
CPU of a `make test` that spends the rest on what it checks. In-process tests do the same
(tests/conftest.py's `_fast_passwords`).
"""

from companion.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
