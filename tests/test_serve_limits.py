"""`make run` raises its process's limit of open files (companion/serve.py): every phone's
live stream is a socket, and a soft limit of 1,024 would refuse the phones past it."""

import subprocess
import sys
from pathlib import Path

RAISE = """
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
from companion.serve import raise_open_files
soft_now, hard_now = raise_open_files()
print(soft_now == hard if hard != resource.RLIM_INFINITY else soft_now >= 10240, hard_now == hard)
"""


def test_the_soft_limit_of_open_files_is_raised_to_the_hard_limit():
    # In a process of its own: the test run's own limit stays as it is.
    done = subprocess.run(
        [sys.executable, "-c", RAISE],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=Path(__file__).resolve().parent.parent,
    )
    # The soft limit is the hard one (or, where that is unlimited, far above 1,024), and the
    # hard one is left as it was.
    assert done.stdout.split() == ["True", "True"]
