"""A burst of reconnecting phones (issue 35): 1,000 streams opening within one second.

Run by hand: `.venv/bin/python tests/bench/bench_burst.py` (about a minute). A restart or a
deploy of a server process brings every phone's stream back at once. SQLite and PostgreSQL side
by side, one uvicorn process each, as the server tests start it (PostgreSQL as bench_scale.py
finds or starts one). Prints figures; asserts nothing.

The phones are made in the database as bench_scale's are (tests/bench/scale_setup.py: users,
memberships, a session each): half on one Arkham campaign's chaos bag page, half five to a
table on a hundred other campaigns' table pages, each opening its stream as live.js does
(`/c/<pk>/stream/?v=<version>&page=<path>`, with its session and CSRF cookies) from the version
it shows. One asyncio client on raw sockets starts the 1,000 streams evenly within one second
and waits up to a minute for each answer's head. Printed per database: how many answered 200,
503 ("try again") or something else, and how many failed (no answer, a reset); the time from
the first start until the last stream was open; each stream's opening time (start to head,
p50 / p95 / max); the server's threads (`Threads:` of /proc/<pid>/status) before, at the
most during, and after the burst; the client's CPU beside the server's; the load average.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.bench.common import (  # noqa: E402
    cpu_seconds,
    load_average,
    on_both_databases,
    percentile,
    resident_kb,
    threads,
    use_database,
)
from tests.server import Database, Site  # noqa: E402

PHONES = int(os.environ.get("BENCH_BURST", "1000"))
WITHIN = 1.0  # seconds over which the streams are started, evenly
ANSWER = 60.0  # seconds a stream may take to answer before it counts as failed
IDLE_EACH = 5  # phones on each of the other campaigns
START = time.monotonic()


@dataclass
class Opening:
    started: float = 0.0
    answered: float | None = None
    status: int | None = None  # the answer's status code
    error: str = ""


@dataclass
class Burst:
    openings: list[Opening] = field(default_factory=list)
    threads_before: int = 0
    threads_most: int = 0
    threads_after: int = 0
    rss_before: int = 0
    rss_after: int = 0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    spread: float = 0.0  # seconds between the first start and the last
    load_before: str = ""
    load_after: str = ""
    tracebacks: int = 0


async def hold(host: str, port: int, path: str, cookies: str, opening: Opening) -> None:
    """One phone's stream: its answer's head timed, then read (and dropped) until cancelled."""
    request = (
        f"GET {path} HTTP/1.1\r\n"
        f"Host: {host}:{port}\r\nAccept: text/event-stream\r\n"
        f"Cookie: {cookies}\r\n\r\n"
    ).encode()
    opening.started = time.perf_counter()
    writer = None
    try:
        async with asyncio.timeout(ANSWER):
            reader, writer = await asyncio.open_connection(host, port, limit=2**22)
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
        opening.answered = time.perf_counter()
        opening.status = int(head.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError, TimeoutError, asyncio.IncompleteReadError) as error:
        opening.error = repr(error)
        if writer is not None:
            writer.close()
        return
    try:
        while await reader.read(65536):
            pass
    except OSError:
        pass
    finally:
        writer.close()  # (not left to the garbage collector: the server hears the phone go)


async def burst(site: Site, made: dict) -> Burst:
    host, port, pid = "127.0.0.1", site.port, site.process.pid
    csrf = secrets.token_hex(16)
    async with httpx.AsyncClient(
        base_url=site.url, cookies={"sessionid": made["owner"], "csrftoken": csrf}
    ) as http:
        version = (await http.get(f"/c/{made['campaign']}/version/")).json()["version"]
    bag = f"/c/{made['campaign']}/p/bag/"
    phones = [(made["campaign"], bag, version, key) for key in made["watchers"]]
    phones += [(pk, f"/c/{pk}/", 0, key) for pk, key in made["idle"]]
    result = Burst(threads_before=threads(pid), rss_before=resident_kb(pid))
    result.load_before = load_average()
    await asyncio.sleep(1)
    done = asyncio.Event()

    async def watch_threads() -> None:
        while not done.is_set():
            result.threads_most = max(result.threads_most, threads(pid))
            await asyncio.sleep(0.02)

    watcher = asyncio.create_task(watch_threads())
    server_cpu, client_cpu = cpu_seconds(pid), time.process_time()
    tasks: list[asyncio.Task] = []
    first = time.perf_counter()
    while len(tasks) < len(phones):
        due = min(len(phones), int((time.perf_counter() - first) / WITHIN * len(phones)) + 1)
        for campaign, page, shown, key in phones[len(tasks) : due]:
            opening = Opening()
            result.openings.append(opening)
            path = f"/c/{campaign}/stream/?v={shown}&page={quote(page, safe='')}"
            cookies = f"sessionid={key}; csrftoken={csrf}"
            tasks.append(asyncio.create_task(hold(host, port, path, cookies, opening)))
        await asyncio.sleep(0.001)
    result.spread = max(o.started for o in result.openings) - first
    deadline = time.perf_counter() + ANSWER + 5
    while time.perf_counter() < deadline and not all(
        o.answered is not None or o.error for o in result.openings
    ):
        await asyncio.sleep(0.05)
    result.server_cpu = cpu_seconds(pid) - server_cpu
    result.client_cpu = time.process_time() - client_cpu
    done.set()
    await watcher
    await asyncio.sleep(2)  # the openings' threads, if any, back in their pool
    result.threads_after, result.rss_after = threads(pid), resident_kb(pid)
    result.load_after = load_average()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return result


def measure(label: str, url: str | None) -> Burst:
    use_database(url)
    print(f"… measuring {label}", file=sys.stderr, flush=True)
    database = Database()
    try:
        watchers = PHONES // 2
        idle = (PHONES - watchers) // IDLE_EACH
        code = f"from tests.bench.scale_setup import make; make({watchers}, {idle}, {IDLE_EACH})"
        made = json.loads(database.shell(code).strip().splitlines()[-1])
        print(f"  … phones made ({time.monotonic() - START:.0f} s)", file=sys.stderr, flush=True)
        site = Site(database)
        try:
            result = asyncio.run(burst(site, made))
        finally:
            site.close()
        result.tracebacks = site.output().count("Traceback")
    finally:
        database.close()
    return result


def report(name: str, result: Burst) -> None:
    print(f"\n{name}")
    answered = Counter(o.status for o in result.openings if o.status is not None)
    failed = [o.error for o in result.openings if o.status is None]
    others = {code: n for code, n in answered.items() if code not in (200, 503)}
    print(
        f"  {len(result.openings)} streams started within {result.spread:.2f} s:"
        f" {answered[200]} × 200, {answered[503]} × 503,"
        f" {sum(others.values())} other{f' {others}' if others else ''}, {len(failed)} failed"
        + (f" (e.g. {failed[:2]})" if failed else "")
    )
    opened = [o for o in result.openings if o.status == 200 and o.answered is not None]
    if opened:
        first = min(o.started for o in result.openings)
        times = [o.answered - o.started for o in opened]
        print(
            f"  all 200s open {max(o.answered for o in opened) - first:.2f} s after the first"
            f" start; opening time p50 / p95 / max {percentile(times, 0.5) * 1000:.0f} /"
            f" {percentile(times, 0.95) * 1000:.0f} / {max(times) * 1000:.0f} ms"
        )
    refused = [o.answered - o.started for o in result.openings if o.status == 503 and o.answered]
    if refused:
        print(f"  503s answered after p50 {percentile(refused, 0.5) * 1000:.0f} ms")
    print(
        f"  server threads {result.threads_before} before, {result.threads_most} at the most"
        f" during, {result.threads_after} after; RSS {result.rss_before / 1024:.0f} →"
        f" {result.rss_after / 1024:.0f} MB"
    )
    print(
        f"  CPU for the burst: server {result.server_cpu:.2f} s, this client"
        f" {result.client_cpu:.2f} s; load average {result.load_before} before,"
        f" {result.load_after} after"
    )
    print(f"  tracebacks in the server's output: {result.tracebacks}")


def main() -> None:
    runs = on_both_databases(measure)
    print(
        f"\nA burst of {PHONES} reconnecting streams on one process ({os.cpu_count()} cores"
        f" shared by the server and this client; load average {load_average()};"
        f" {time.monotonic() - START:.0f} s)"
    )
    for name, result in runs.items():
        if result is None:
            print(f"\n{name}\n  not measured (no DATABASE_URL or COMPANION_BENCH_PG, none started)")
            continue
        report(name, result)


if __name__ == "__main__":
    main()
