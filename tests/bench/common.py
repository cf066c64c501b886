"""What the benchmarks share: percentiles, a process's CPU and memory, and the databases they
measure (SQLite, and PostgreSQL when one is given or can be started here)."""

from __future__ import annotations

import contextlib
import os
import pwd
import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.server import free_port


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, all its threads (user and system)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_kb(pid: int) -> int:
    """A process's resident memory (VmRSS), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def threads(pid: int) -> int:
    """A process's threads now (`Threads:` of /proc/<pid>/status); 0 once it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def load_average() -> str:
    """The machine's load average (1, 5 and 15 minutes), as the benches print it."""
    return " ".join(f"{figure:.1f}" for figure in os.getloadavg())


def use_database(url: str | None) -> None:
    """The database the next tests.server.Database is made in: PostgreSQL at `url`, or SQLite."""
    if url:
        os.environ["DATABASE_URL"] = url
    else:
        os.environ.pop("DATABASE_URL", None)


@contextlib.contextmanager
def postgresql() -> Iterator[str | None]:
    """A PostgreSQL server's URL for the benchmark: DATABASE_URL or COMPANION_BENCH_PG when
    given, else a throwaway cluster started here as .ci/run starts one (root, with Debian's
    postgres user and binaries), else None: not measured."""
    given = os.environ.get("COMPANION_BENCH_PG") or os.environ.get("DATABASE_URL", "")
    if given.startswith("postgres"):
        yield given
        return
    binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        binaries = []
    if os.geteuid() != 0 or not binaries:
        yield None
        return
    bin_dir = binaries[-1].parent
    folder = tempfile.mkdtemp(prefix="companion-bench-pg-")
    shutil.chown(folder, "postgres", "postgres")
    port = free_port()

    def as_postgres(command: str) -> None:
        subprocess.run(["su", "postgres", "-c", command], check=True, capture_output=True)

    as_postgres(f"{bin_dir}/initdb -N -D {folder}/data -U postgres --auth=trust -E UTF8")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    options += " -c fsync=off"
    as_postgres(f"{bin_dir}/pg_ctl -D {folder}/data -o '{options}' -l {folder}/log -w start")
    try:
        yield f"postgres://postgres@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            as_postgres(f"{bin_dir}/pg_ctl -D {folder}/data -m fast stop")
        shutil.rmtree(folder, ignore_errors=True)


def on_both_databases[T](measure: Callable[[str, str | None], T | None]) -> dict[str, T | None]:
    """`measure(label, database_url)` on SQLite, then on PostgreSQL (None where no PostgreSQL is
    given and none could start), side by side in one run, with as many open files as the system
    allows (the servers the benches start inherit the limit: each phone's stream is a socket)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs: dict[str, T | None] = {"SQLite": measure("SQLite", None)}
    with postgresql() as url:
        runs["PostgreSQL"] = measure("PostgreSQL", url) if url else None
    return runs
