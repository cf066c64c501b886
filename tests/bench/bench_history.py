"""Undo, redo and import at 10, 10,000 and 100,000 events, side by side, and how long an import
holds SQLite's one write lock while another campaign keeps writing.

Run by hand: `.venv/bin/python tests/bench/bench_history.py` (or `make bench`). Prints figures;
asserts nothing. It uses a throwaway SQLite database, with the site's settings (WAL, IMMEDIATE).
"""

import json
import statistics
import threading
import time
from types import SimpleNamespace

import throwaway

throwaway.site(static=False)

from django.db import connection, transaction  # noqa: E402

from campaigns import bulk, transfer  # noqa: E402
from campaigns.models import Snapshot  # noqa: E402
from tests import factories  # noqa: E402

user = factories.user("bench")
SETUP = {
    "trackers": [
        {"kind": "counter", "name": "Doom"},
        {"kind": "notes", "name": "Notes"},
        {"kind": "results", "name": "Results"},
    ]
}
PLUS_ONE = ("counter.adjust", {"tracker": 1, "delta": 1})
SIZES = (10, 10_000, 100_000)
RUNS = 15


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


CPU: list[float] = []  # the process's CPU time of each timed call: steadier on a busy machine


def timed(action) -> float:
    cpu, start = time.process_time(), time.perf_counter()
    action()
    CPU.append(time.process_time() - cpu)
    return time.perf_counter() - start


class TimedAtomic:
    """transaction.atomic for the bulk writer, recording how long each write transaction lasts."""

    spans: list[float] = []

    def __enter__(self):
        self.inner = transaction.atomic()
        self.start = time.perf_counter()
        return self.inner.__enter__()

    def __exit__(self, *exc):
        result = self.inner.__exit__(*exc)
        TimedAtomic.spans.append(time.perf_counter() - self.start)
        return result


def writes_meanwhile(stop: threading.Event, latencies: list[float], failures: list[str]) -> None:
    """Another member changing another campaign, again and again, from its own connection."""
    other = factories.campaign(owner=user, setup=SETUP)
    try:
        while not stop.is_set():
            start = time.perf_counter()
            try:
                other.apply(*PLUS_ONE, user)
            except Exception as error:  # the figure to print, whatever went wrong
                failures.append(type(error).__name__)
            latencies.append(time.perf_counter() - start)
            time.sleep(0.01)
    finally:
        connection.close()


rows = []
for size in SIZES:
    built = time.perf_counter()
    campaign = factories.history(factories.campaign(owner=user, setup=SETUP), [PLUS_ONE] * size)
    built = time.perf_counter() - built
    CPU.clear()
    undo = [timed(lambda c=campaign: c.undo(user)) for _ in range(min(RUNS, size))]
    undo_cpu = statistics.median(CPU)
    redo = [timed(lambda c=campaign: c.redo(user)) for _ in range(min(RUNS, size))]
    apply = [timed(lambda c=campaign: c.apply(*PLUS_ONE, user)) for _ in range(RUNS)]
    snapshots = Snapshot.objects.filter(event__campaign=campaign).count()

    raw = json.dumps(transfer.export_campaign(campaign)).encode()
    TimedAtomic.spans = []
    stop, latencies, failures = threading.Event(), [], []
    meanwhile = threading.Thread(target=writes_meanwhile, args=(stop, latencies, failures))
    real = bulk.transaction
    bulk.transaction = SimpleNamespace(atomic=TimedAtomic)
    meanwhile.start()
    time.sleep(0.2)
    try:
        imported = timed(lambda r=raw: transfer.import_campaign(r, user))
    finally:
        bulk.transaction = real
        stop.set()
        meanwhile.join()
    rows.append(
        (
            size,
            statistics.median(undo),
            undo_cpu,
            statistics.median(redo),
            statistics.median(apply),
            snapshots,
            len(raw),
            imported,
            statistics.median(TimedAtomic.spans),
            max(TimedAtomic.spans),
            statistics.median(latencies) if latencies else 0.0,
            max(latencies) if latencies else 0.0,
            len(latencies),
            len(failures),
            built,
        )
    )

print(f"Undo, redo and a change (median of {RUNS}, ms, SQLite file with WAL), and an import:")
print(
    f"{'events':>8} {'undo':>6} {'cpu':>6} {'redo':>6} {'change':>7} {'snaps':>6}"
    f" | {'MB':>5} {'import s':>8} {'ms/1k':>6} {'lock ms p50/max':>16}"
    f" {'other ms p50/max':>17} {'writes':>6} {'failed':>6}"
)
for (
    size,
    u,
    ucpu,
    r,
    a,
    snaps,
    raw,
    imp,
    lock50,
    lock,
    other50,
    other,
    writes,
    failed,
    built,
) in rows:
    print(
        f"{size:>8} {ms(u):>6} {ms(ucpu):>6} {ms(r):>6} {ms(a):>7} {snaps:>6}"
        f" | {raw / 1e6:>5.1f} {imp:>8.2f} {imp / size * 1e6:>6.0f}"
        f" {ms(lock50) + '/' + ms(lock):>16} {ms(other50) + '/' + ms(other):>17}"
        f" {writes:>6} {failed:>6}   (built in {built:.1f} s)"
    )
first, last = rows[0][1], rows[-1][1]
print(f"undo at {SIZES[-1]:,} events / at {SIZES[0]}: {last / first:.2f}× (wall), ", end="")
print(f"{rows[-1][2] / rows[0][2]:.2f}× (CPU)")
print(
    "(cpu: the undo's CPU time; ms/1k: import time per 1,000 events; lock: the import's write"
    " transactions; other: a change another member made to another campaign meanwhile.)"
)
