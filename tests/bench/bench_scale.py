"""Scale per process (issue 19): 1,000 phones on one campaign, 1,000 idle across 200 others.

Run by hand: `.venv/bin/python tests/bench/bench_scale.py` (about three minutes). SQLite and
PostgreSQL side by side, one uvicorn process each, as the server tests start it: PostgreSQL at
DATABASE_URL or COMPANION_BENCH_PG, else a throwaway local cluster when this runs as root on a
machine with Debian's PostgreSQL (as .ci/run starts one), else "not measured". Prints figures;
asserts nothing.

The phones are made in the database (users, memberships and session rows, not 2,000 log-ins)
and are one asyncio client on raw sockets: each holds a stream as live.js opens it
(`/c/<pk>/stream/?v=<version>&page=<the page's path>`, with its session and CSRF cookies, as a
stream pushes a page only to a phone that has a CSRF cookie).

- (a) N phones (200, 500, 1,000) on one Arkham campaign's chaos bag page; its owner draws a
  token, as swap.js posts it (HX-Request, X-CSRFToken, region, version, page, change). Per draw:
  from the POST until each phone has the `page` message of the new version (p50, p95, max, over
  all phones and draws), the bytes each phone received for that change, and the server's CPU
  (utime + stime of its process) for the change, in all and per phone.
- (b) With those 1,000 open, 1,000 idle phones more, five on each of 200 other campaigns' table
  pages: the server's resident memory (VmRSS) before and after, per idle stream; then (a) again.

The client shares the machine's cores with the server: its own CPU is printed beside. Also the
size and time of `campaigns.live_delta.delta` between two consecutive bag pages the phones got
(what a phone at the version before would get instead of the page).

2026-12-03, before the push's per-phone cost was looked at (whole pages with a token in each;
the 2-core machine under other work, load average 10-13; 4 draws a figure, 219 s), draw to
page p50/p95 ms, SQLite · PostgreSQL: 200 phones 400/641 · 420/733; 500: 1208/3050 ·
1275/2458; 1,000: 2482/4487 · 1952/4081; 1,000 with 1,000 idle: 1555/2886 · 2587/6772. About
64 KB per phone per draw, 1.6-2.0 ms of server CPU per phone; an idle stream 32-35 KB of
the server's memory. delta() between two bag pages: 20 KB of 62 KB, 2.2 ms.

2026-12-03, after (one drawing and one message per push key, the token out of the page, a phone
at the version before sent only the regions that changed; load average 2.4-2.9, 2-4 draws a
figure): 1,000 phones p50/p95 130/144-170 ms (SQLite) · 137/157-173 ms (PostgreSQL); with 1,000
idle more 147-266/284-443 · 122-132/156-168 ms; 14-20 KB per phone per draw (a draw's delta 18 KB
of the 57 KB bag page), 0.10-0.16 ms of server CPU per phone; an idle stream 39-46 KB.

2026-12-04, a slower 2-core machine (see bench_fair.py), quiet (load average 0.4 before, 2.0
after), with the server's 0.5 ms interpreter-lock turns (companion/asgi.py), 4 draws a figure,
p50/p95 ms, SQLite · PostgreSQL: 200 phones 102/197 · 130/378; 500: 197/222 · 133/193; 1,000:
175/243 · 156/201; 1,000 with 1,000 idle more: 209/290 · 178/239. 15-20 KB per phone per draw,
0.17-0.29 ms of server CPU per phone at 1,000; an idle stream 38 KB of the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.bench.common import (  # noqa: E402
    cpu_seconds,
    percentile,
    postgresql,
    resident_kb,
    use_database,
)
from tests.server import Database, Site  # noqa: E402

COUNTS = (200, 500, 1000)
IDLE_CAMPAIGNS, IDLE_EACH = 200, 5
DRAWS = int(os.environ.get("BENCH_DRAWS", "4"))
START = time.monotonic()
WAIT = 30.0  # seconds a draw may take to reach every phone before the bench moves on


@dataclass
class Phone:
    """One stream's phone: what it has received, and when each version's page came."""

    received: int = 0  # bytes of the stream's body so far
    pages: dict[int, tuple[float, int]] = field(default_factory=dict)  # version: (time, bytes)
    versions_only: int = 0  # `version` messages: the page was not pushed
    partial: int = 0  # `page` messages that held only the regions changed since the last
    whole: int = 0  # `page` messages that held the whole page


class Streams:
    """The phones' streams on raw sockets (HTTP/1.1, chunked; server-sent events parsed only
    as far as the event's name and version)."""

    VERSION = re.compile(rb'^data: \{"version": (\d+)', re.MULTILINE)

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.tasks: list[asyncio.Task] = []
        self.arrived: dict[int, int] = {}  # version: phones that have its page
        self.wanted: tuple[int, int, asyncio.Event] | None = None  # version, phones, all there
        self.failed: list[str] = []

    async def open(self, campaign: int, page: str, version: int, cookies: str) -> Phone:
        """A phone streaming `page` of `campaign` from `version`, once its stream answered."""
        phone = Phone()
        opened = asyncio.get_running_loop().create_future()
        path = f"/c/{campaign}/stream/?v={version}&page={quote(page, safe='')}"
        task = self.hold(phone, opened, path, cookies)
        self.tasks.append(asyncio.create_task(task))
        await opened
        return phone

    async def hold(self, phone: Phone, opened: asyncio.Future, path: str, cookies: str):
        request = (
            f"GET {path} HTTP/1.1\r\n"
            f"Host: {self.host}:{self.port}\r\nAccept: text/event-stream\r\n"
            f"Cookie: {cookies}\r\n\r\n"
        ).encode()
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port, limit=2**22)
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
            opened.set_result(None)
            buffer, searched = b"", 0
            while True:
                size = int(await reader.readline(), 16)
                if size == 0:
                    return
                chunk = await reader.readexactly(size + 2)
                phone.received += size
                buffer += chunk[:-2]
                while (end := buffer.find(b"\n\n", searched)) >= 0:
                    self.heard(phone, buffer[:end])
                    buffer, searched = buffer[end + 2 :], 0
                searched = max(0, len(buffer) - 1)
        except (OSError, ValueError, asyncio.IncompleteReadError) as error:
            if not opened.done():
                opened.set_result(None)
            self.failed.append(repr(error))

    def heard(self, phone: Phone, event: bytes) -> None:
        if not event.startswith(b"event: page") and not event.startswith(b"event: version"):
            return
        found = self.VERSION.search(event, 0)
        if found is None:
            return
        version = int(found[1])
        if event.startswith(b"event: version"):
            phone.versions_only += 1
            return
        phone.pages[version] = (time.perf_counter(), phone.received)
        if b'"from": ' in event[:200]:
            phone.partial += 1
        else:
            phone.whole += 1
        self.arrived[version] = self.arrived.get(version, 0) + 1
        if self.wanted and self.wanted[0] == version and self.arrived[version] >= self.wanted[1]:
            self.wanted[2].set()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@dataclass
class Figure:
    phones: int
    times: list[float] = field(default_factory=list)  # POST to page, every phone of every draw
    sizes: list[int] = field(default_factory=list)  # bytes a phone received for a change
    cpu: list[float] = field(default_factory=list)  # server CPU seconds per draw
    client_cpu: list[float] = field(default_factory=list)
    missing: int = 0  # phones that had no page within WAIT


class Table:
    """The watched campaign's owner, who draws, and its phones."""

    def __init__(self, site: Site, made: dict) -> None:
        self.site, self.made = site, made
        self.campaign = made["campaign"]
        self.csrf = secrets.token_hex(16)  # a CSRF secret of 32 characters, as Django makes
        self.http = httpx.AsyncClient(
            base_url=site.url,
            cookies={"sessionid": made["owner"], "csrftoken": self.csrf},
            timeout=60,
        )
        self.version = 0
        self.phones: list[Phone] = []

    async def draw(self, streams: Streams, figure: Figure) -> None:
        pid = self.site.process.pid
        before = {id(p): p.received for p in self.phones}
        version = self.version + 1
        done = asyncio.Event()
        streams.wanted = (version, len(self.phones), done)
        cpu, client = cpu_seconds(pid), time.process_time()
        posted = time.perf_counter()
        response = await self.http.post(
            f"/c/{self.campaign}/do/bag.draw/",
            data={
                "region": "bag-actions",
                "version": self.version,
                "page": "bag",
                "change": f"bench{secrets.token_hex(6)}.{secrets.token_hex(6)}",
            },
            headers={"HX-Request": "true", "X-CSRFToken": self.csrf},
        )
        assert response.status_code == 200, (response.status_code, response.text[:300])
        self.version = int(response.headers["X-Campaign-Version"])
        if self.version != version:
            streams.wanted = (self.version, len(self.phones), done)
            if streams.arrived.get(self.version, 0) >= len(self.phones):
                done.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), WAIT)
        figure.cpu.append(cpu_seconds(pid) - cpu)
        figure.client_cpu.append(time.process_time() - client)
        for phone in self.phones:
            if self.version in phone.pages:
                at, received = phone.pages[self.version]
                figure.times.append(at - posted)
                figure.sizes.append(received - before[id(phone)])
            else:
                figure.missing += 1
        await asyncio.sleep(0.3)  # the stragglers' heartbeats and the like, out of the next


async def settled_memory(pid: int) -> float:
    """The server's resident memory once the last draw's pages have left its buffers: the
    median of readings over three seconds, after two."""
    await asyncio.sleep(2)
    readings = []
    for _ in range(7):
        readings.append(resident_kb(pid))
        await asyncio.sleep(0.5)
    return statistics.median(readings)


async def run(site: Site, made: dict) -> dict:
    host, port = "127.0.0.1", site.port
    streams = Streams(host, port)
    table = Table(site, made)
    table.version = (await table.http.get(f"/c/{table.campaign}/version/")).json()["version"]
    results: dict = {"figures": []}

    async def open_phones(count: int, phones) -> list[Phone]:
        """`count` phones from `phones` ((campaign, page, session) each), a hundred at a time."""
        opened: list[Phone] = []
        for start in range(0, count, 100):
            batch = []
            for _ in range(start, min(count, start + 100)):
                campaign, page, session = next(phones)
                cookies = f"sessionid={session}; csrftoken={table.csrf}"
                version = table.version if campaign == table.campaign else 0
                batch.append(streams.open(campaign, page, version, cookies))
            opened += await asyncio.gather(*batch)
        return opened

    try:
        bag = f"/c/{table.campaign}/p/bag/"
        feed = iter((table.campaign, bag, session) for session in made["watchers"])
        for count in COUNTS:
            table.phones += await open_phones(count - len(table.phones), feed)
            await asyncio.sleep(1)
            figure = Figure(count)
            for _ in range(DRAWS):
                await table.draw(streams, figure)
            results["figures"].append(figure)
            print(
                f"  … {count} phones ({time.monotonic() - START:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        pid = site.process.pid
        rss = await settled_memory(pid)
        idle_feed = iter((pk, f"/c/{pk}/", session) for pk, session in made["idle"])
        await open_phones(len(made["idle"]), idle_feed)
        results["idle"] = (rss, await settled_memory(pid), len(made["idle"]))
        figure = Figure(COUNTS[-1])
        for _ in range(DRAWS):
            await table.draw(streams, figure)
        results["figures"].append(figure)
        results["versions_only"] = sum(p.versions_only for p in table.phones)
        results["partial"] = sum(p.partial for p in table.phones)
        results["whole"] = sum(p.whole for p in table.phones)
        # The whole page (a live refresh) before and after one more draw, for delta()'s figures.
        refresh = {"HX-Request": "true", "X-Live-Refresh": "true"}
        results["kept"] = [(await table.http.get(bag, headers=refresh)).text]
        await table.draw(streams, Figure(COUNTS[-1]))
        results["kept"].append((await table.http.get(bag, headers=refresh)).text)
    finally:
        results["failed"] = streams.failed
        await streams.close()
        await table.http.aclose()
    return results


def measure(label: str, url: str | None) -> dict | None:
    use_database(url)
    print(f"… measuring {label}", file=sys.stderr, flush=True)
    database = Database()
    try:
        sizes = f"{COUNTS[-1]}, {IDLE_CAMPAIGNS}, {IDLE_EACH}"
        code = f"from tests.bench.scale_setup import make; make({sizes})"
        print(f"  … database ready ({time.monotonic() - START:.0f} s)", file=sys.stderr, flush=True)
        made = json.loads(database.shell(code).strip().splitlines()[-1])
        print(f"  … phones made ({time.monotonic() - START:.0f} s)", file=sys.stderr, flush=True)
        site = Site(database)
        try:
            results = asyncio.run(run(site, made))
        finally:
            site.close()
        results["tracebacks"] = site.output().count("Traceback")
    finally:
        database.close()
    return results


def delta_figures(pages: list[str]) -> str:
    from campaigns.live_delta import delta

    if len(pages) < 2:
        return "not measured (fewer than two pages kept)"
    before, after = pages[-2], pages[-1]
    started = time.perf_counter()
    for _ in range(20):
        partial = delta(before, after)
    took = (time.perf_counter() - started) / 20 * 1000
    size = "the whole page" if partial is None else f"{len(partial.encode()) / 1024:.1f} KB"
    return f"page {len(after.encode()) / 1024:.1f} KB, delta {size}, {took:.2f} ms"


def main() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it too
    runs: dict[str, dict | None] = {"SQLite": measure("SQLite", None)}
    with postgresql() as url:
        runs["PostgreSQL"] = measure("PostgreSQL", url) if url else None
    print(
        f"\nScale per process ({os.cpu_count()} cores shared by the server and this client;"
        f" load average {' '.join(f'{n:.1f}' for n in os.getloadavg())}; open files {hard};"
        f" {DRAWS} draws a figure; {time.monotonic() - START:.0f} s)"
    )
    for name, results in runs.items():
        print(f"\n{name}")
        if results is None:
            print("  not measured (no DATABASE_URL or COMPANION_BENCH_PG, and none could start)")
            continue
        print(
            "  phones  draw→page p50 / p95 / max ms  KB/phone  server CPU s/draw  ms/phone"
            "  client CPU s  missing"
        )
        for n, figure in enumerate(results["figures"]):
            times = figure.times or [float("nan")]
            cpu = statistics.median(figure.cpu)
            label = f"{figure.phones}" + (" +1000 idle" if n == len(COUNTS) else "")
            print(
                f"  {label:>15} {statistics.median(times) * 1000:7.0f} /"
                f" {percentile(times, 0.95) * 1000:5.0f} / {max(times) * 1000:5.0f}"
                f" {statistics.median(figure.sizes or [0]) / 1024:9.1f}"
                f" {cpu:12.2f} {cpu / figure.phones * 1000:12.2f}"
                f" {statistics.median(figure.client_cpu):11.2f} {figure.missing:8}"
            )
        before, after, idle = results["idle"]
        print(
            f"  idle streams: server RSS {before / 1024:.0f} MB → {after / 1024:.0f} MB with"
            f" {idle} more: {(after - before) / idle:.1f} KB per idle stream"
        )
        print(
            f"  pages pushed with only the changed regions: {results['partial']},"
            f" whole: {results['whole']}"
        )
        print(f"  live_delta on two consecutive bag pages: {delta_figures(results['kept'])}")
        if results["versions_only"]:
            print(f"  version-only messages (page not pushed): {results['versions_only']}")
        if results["failed"]:
            print(f"  streams that failed: {len(results['failed'])}, e.g. {results['failed'][:3]}")
        print(f"  tracebacks in the server's output: {results['tracebacks']}")


if __name__ == "__main__":
    main()
