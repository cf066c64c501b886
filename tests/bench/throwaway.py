"""The benchmarks' throwaway site: a fresh SQLite database (and static root) in a temporary
folder, the site's settings, migrated. Import it first thing in a benchmark run as a script
(`.venv/bin/python tests/bench/bench_x.py`: this folder is then on sys.path):

    import throwaway
    throwaway.site(static=True)  # then import Django and the site's modules

It puts the repository on sys.path so that `campaigns` and `tests` import.
"""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def site(static: bool = False) -> Path:
    """Set up Django on a new database; with static, collect the static files too (what the
    server sends). Returns the temporary folder."""
    sys.path.insert(0, str(ROOT))
    tmp = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    os.environ.pop("DATABASE_URL", None)
    os.environ["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    if static:
        os.environ["STATIC_ROOT"] = str(tmp / "static")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    if static:
        call_command("collectstatic", "--noinput", verbosity=0)
    return tmp
