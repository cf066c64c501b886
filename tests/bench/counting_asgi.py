"""Companion's ASGI application, counting every database query it makes (for bench_live.py).

The count is written to the file COMPANION_QUERY_COUNT names, twice a second.
"""

import itertools
import os
import threading
import time

from django.db.backends.signals import connection_created

from companion.asgi import application  # noqa: F401 (served by uvicorn)

_counter = itertools.count()
_seen = [0]


def _count(execute, sql, params, many, context):
    _seen[0] = next(_counter) + 1
    return execute(sql, params, many, context)


def _wrap(sender, connection, **kwargs):
    connection.execute_wrappers.append(_count)


connection_created.connect(_wrap)


def _report(path: str) -> None:
    while True:
        with open(path + ".new", "w") as out:
            out.write(str(_seen[0]))
        os.replace(path + ".new", path)  # a reader never sees a half-written file
        time.sleep(0.5)


threading.Thread(target=_report, args=(os.environ["COMPANION_QUERY_COUNT"],), daemon=True).start()
