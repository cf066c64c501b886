"""The live layer of a hosted site: idle streams, live latency, many writers at once.

Run by hand: `.venv/bin/python tests/bench/bench_live.py`; with DATABASE_URL set to a PostgreSQL
server it measures PostgreSQL beside SQLite. Each database gets its own real uvicorn process, as
the server tests use. Prints figures; asserts nothing.

- idle: database queries per second the server makes while 1, 8 or 50 phones hold a stream and
  nothing changes.
- live: from the tap's POST to the change reaching each phone's stream (p50/p95), with 1, 8, 50
  and 200 phones on one process; "shown" is to the page itself reaching each phone: the stream
  names the page its phone shows and sends it with the news (campaigns/views/live.py); until
  2026-12-02 the phone fetched it again on the news, and these figures are for that:
  Before the live refresh was shared (a quiet machine): shown p50/p95 ms 33/39 at 1 phone,
  118/133 at 8, 795/976 at 50, 4446/5115 at 200. Then shared, drawn once per version and
  answered on a few threads of its own (campaigns/views/shared.py, companion/asgi.py), runs
  alternating old and new on the 2-core machine under other work (load average 6 to 11), at 50
  phones old 770/1111, 1570/3065, 1035/1409, new 1049/2173, 463/834, 426/819; at 200 old
  4993/6514, 6045/7424, 5562/7316, new 4170/7757, 2285/4348, 2961/6300. Server CPU per live
  refresh with 200 at once: 13.5 to 25 ms before, 3.1 to 5.9 ms after.
  The stream sending the page (2026-12-02, quiet machine), shown p50/p95 ms SQLite / PostgreSQL:
  1 phone 27/32, 31/35; 8: 41/49, 50/61; 50: 87/127, 114/193; 200: 262/522, 346/592 (the
  phones fetching it on the news, measured earlier that night: 200 phones 2434/3297, 2329/3678).
- writers: 8, 32 and 64 phones tapping one campaign at once, 640 taps in all (a fifth are undos),
  three rounds taking turns: server errors, acknowledged taps per second, latency, whether the
  events and the state check out (see tests/load.py), and CPU per tap. Medians on a quiet
  machine (2026-12-02), taps/s at 8 / 32 / 64 writers, SQLite; PostgreSQL: with each change in
  Django's own ASGI path 58.6 / 55.6 / 54.0; 43.1 / 44.2 / 40.9 (server CPU 17-19 ms a tap;
  21-22 ms); answered in one of four threads kept for changes (companion/asgi.py) 97.2 / 98.2 /
  104.1; 77.2 / 77.1 / 67.8 (server CPU 10 ms; 11-13 ms). Eight threads instead of four: 88 /
  87 / 83; 63 / 60 / 65. A count's figure moves by a tenth between runs: two more runs with four
  threads gave 82.3 / 90.2 / 86.7 and 74.0 / 71.6 / 80.8; PostgreSQL alone 74.2 / 73.7 / 77.7.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.bench.common import cpu_seconds, percentile, use_database  # noqa: E402
from tests.load import busy_table, problems_after, write_at_once  # noqa: E402
from tests.server import Database, Phone, Site  # noqa: E402

SECTIONS = sys.argv[1:] or ["idle", "live", "writers"]  # or name the ones to run
IDLE_PHONES = (1, 8, 50)
LIVE_PHONES = (1, 8, 50, 200)
WRITERS = (8, 32, 64)
ROUNDS = 3
TAPS = 640  # in each run, shared by its writers: runs of one length compare (8 x 80 ... 64 x 10)
CHANGES = 10


async def hold_streams(phone: Phone, base: str, campaign: int, count: int, seconds: float):
    cookies = dict(phone.http.cookies)
    limits = httpx.Limits(max_connections=count + 10)
    async with httpx.AsyncClient(base_url=base, cookies=cookies, limits=limits) as client:

        async def one() -> None:
            with contextlib.suppress(httpx.HTTPError):
                async with client.stream("GET", f"/c/{campaign}/stream/", timeout=None) as r:
                    async for _line in r.aiter_lines():
                        pass

        tasks = [asyncio.create_task(one()) for _ in range(count)]
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def idle_queries(database: Database) -> dict[int, float]:
    counts = Path(tempfile.mkdtemp(prefix="companion-count-")) / "queries"
    site = Site(
        database, app="tests.bench.counting_asgi:application", COMPANION_QUERY_COUNT=str(counts)
    )
    owner = Phone(site.url)
    owner.signup(f"idle{time.monotonic_ns()}")
    campaign = owner.create_campaign("Idle table", counters="Taps")
    rates = {}
    try:
        for phones in IDLE_PHONES:

            async def measure(phones: int = phones) -> float:
                holder = asyncio.create_task(hold_streams(owner, site.url, campaign, phones, 8))
                await asyncio.sleep(2)  # every stream open
                before = int(counts.read_text())
                await asyncio.sleep(5)
                after = int(counts.read_text())
                await holder
                return (after - before) / 5

            rates[phones] = asyncio.run(measure())
    finally:
        owner.close()
        site.close()
    return rates


def live_latency(site: Site) -> dict[int, tuple[list[float], list[float]]]:
    """Per phone count: tap to stream message (phones that only listen), and tap to the page
    reaching the phone (streams that name their page, as live.js's do: drawing and sending the
    pages loads the server, so they are measured in a run of their own)."""
    results = {}
    for phones in LIVE_PHONES:
        passes = []
        for shown in (False, True):
            owner = Phone(site.url)
            owner.signup(f"live{time.monotonic_ns()}")
            campaign = owner.create_campaign("Watched table", counters="Taps")
            taps = int(
                re.search(r'id="tracker-(\d+)-name">Taps<', owner.get(f"/c/{campaign}/").text)[1]
            )
            passes.append(
                asyncio.run(watch_changes(owner, site.url, campaign, taps, phones, shown))
            )
            owner.close()
        results[phones] = (passes[0], passes[1])
    return results


async def watch_changes(
    owner: Phone, base: str, campaign: int, taps: int, phones: int, shown: bool
) -> list[float]:
    cookies = dict(owner.http.cookies)
    # Idle connections expire before uvicorn's keep-alive (5 s) closes them under a request.
    limits = httpx.Limits(max_connections=2 * phones + 10, keepalive_expiry=2)
    posted: dict[int, float] = {}
    reached: list[float] = []
    count: dict[int, int] = {}
    refused: list[int] = []
    async with httpx.AsyncClient(
        base_url=base, cookies=cookies, limits=limits, timeout=60
    ) as client:
        # With `shown`, the stream names the page its phone shows and sends it with the news.
        query = f"v=0&page=/c/{campaign}/" if shown else "v=0"

        async def phone() -> None:
            async with client.stream("GET", f"/c/{campaign}/stream/?{query}") as response:
                if response.status_code != 200:
                    refused.append(response.status_code)
                    return
                async for line in response.aiter_lines():
                    if not line.startswith("data:") or "version" not in line:
                        continue
                    data = json.loads(line[5:])
                    version = data["version"]
                    if version not in posted or (shown and "html" not in data):
                        continue
                    reached.append(time.perf_counter() - posted[version])
                    count[version] = count.get(version, 0) + 1

        tasks = [asyncio.create_task(phone()) for _ in range(phones)]
        await asyncio.sleep(1 + phones / 100)  # every stream open
        token = owner.csrf()
        for version in range(1, CHANGES + 1):
            posted[version] = time.perf_counter()
            response = await client.post(
                f"/c/{campaign}/do/counter.adjust/",
                data={"tracker": taps, "delta": 1},
                headers={"X-CSRFToken": token},
            )
            assert response.status_code == 302, response.status_code
            deadline = time.perf_counter() + 10
            while count.get(version, 0) < phones and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    if refused:
        print(f"{phones} phones: {len(refused)} streams refused: {refused[:5]}", file=sys.stderr)
    return reached


def writers(site: Site) -> dict[int, list[tuple]]:
    """ROUNDS rounds of 8, 32 and 64 writers in turn, so that what else the machine does
    falls on every count alike (one run after the other, a count's figure moved by a fifth)."""
    results: dict[int, list[tuple]] = {count: [] for count in WRITERS}
    for _round in range(ROUNDS):
        for count in WRITERS:
            owner, phones, campaign = busy_table(site.url, count, f"{count} writers")
            server, clients = cpu_seconds(site.process.pid), time.process_time()
            load = write_at_once(phones, campaign, taps_each=TAPS // count)
            taps = max(1, load.acknowledged)
            server = (cpu_seconds(site.process.pid) - server) / taps
            clients = (time.process_time() - clients) / taps
            problems = problems_after(owner, campaign, load) + load.errors[:3]
            results[count].append((load, problems, server, clients))
            for phone in [owner, *phones]:
                phone.close()
    return results


def measure(label: str, url: str | None) -> dict:
    use_database(url)
    print(f"… measuring {label}", file=sys.stderr, flush=True)
    database = Database()
    try:
        idle = idle_queries(database) if "idle" in SECTIONS else {}
        # (The writers tap as fast as the server answers: tests/server.py turns the limit on a
        # member's pace off, so this measures the server's throughput.)
        site = Site(database)
        try:
            live = live_latency(site) if "live" in SECTIONS else {}
            written = writers(site) if "writers" in SECTIONS else {}
        finally:
            site.close()
        errors = site.output().count("Traceback")
    finally:
        database.close()
    return {"idle": idle, "live": live, "writers": written, "tracebacks": errors}


def main() -> None:
    url = os.environ.get("DATABASE_URL", "")
    runs = {"SQLite": measure("SQLite", None)}
    if url.startswith("postgres"):
        runs["PostgreSQL"] = measure("PostgreSQL", url)
        os.environ["DATABASE_URL"] = url
    names = list(runs)
    width = 34

    def row(title: str, cells: list[str]) -> None:
        print(f"{title:<28}" + "".join(f"{cell:>{width}}" for cell in cells))

    print(f"\nThe live layer ({os.cpu_count()} cores; one uvicorn process per database)\n")
    row("", names)
    print("Idle streams: database queries per second")
    for phones in IDLE_PHONES if "idle" in SECTIONS else ():
        row(f"  {phones} phones", [f"{runs[n]['idle'][phones]:.1f}" for n in names])
    print("Live: tap to stream p50/p95 ms   (tap to page shown p50/p95)")
    for phones in LIVE_PHONES if "live" in SECTIONS else ():
        cells = []
        for n in names:
            reached, shown = runs[n]["live"][phones]
            cells.append(
                f"{statistics.median(reached) * 1000:.0f}/{percentile(reached, 0.95) * 1000:.0f}"
                f"  ({statistics.median(shown) * 1000:.0f}/{percentile(shown, 0.95) * 1000:.0f})"
            )
        row(f"  {phones} phones", cells)
    print(
        f"Writers on one campaign, {TAPS} taps a run, {ROUNDS} rounds: 5xx · taps/s median"
        " (lowest-highest) · p50/p95 ms · checks"
    )
    for count in WRITERS if "writers" in SECTIONS else ():
        cells = []
        for n in names:
            rounds = runs[n]["writers"][count]
            rates = sorted(load.per_second for load, *_rest in rounds)
            latencies = sorted(t for load, *_rest in rounds for t in load.latencies)
            errors = sum(load.server_errors for load, *_rest in rounds)
            ok = not any(problems for _load, problems, *_rest in rounds)
            cells.append(
                f"{errors} · {statistics.median(rates):.1f} ({rates[0]:.0f}-{rates[-1]:.0f}) · "
                f"{statistics.median(latencies) * 1000:.0f}/"
                f"{percentile(latencies, 0.95) * 1000:.0f} · {'ok' if ok else 'FAIL'}"
            )
        row(f"  {count} writers", cells)
    print("  CPU ms per tap, median: server process · the bench's phones (same 2 cores)")
    for count in WRITERS if "writers" in SECTIONS else ():
        cells = []
        for n in names:
            rounds = runs[n]["writers"][count]
            server = statistics.median(cpu for _load, _problems, cpu, _clients in rounds)
            clients = statistics.median(cpu for _load, _problems, _server, cpu in rounds)
            cells.append(f"{server * 1000:.1f} · {clients * 1000:.1f}")
        row(f"  {count} writers", cells)
    for n in names:
        for count in WRITERS if "writers" in SECTIONS else ():
            for load, problems, *_rest in runs[n]["writers"][count]:
                if problems:
                    print(f"{n}, {count} writers: {problems}  statuses {load.statuses}")
        if runs[n]["tracebacks"]:
            print(f"{n}: the server logged {runs[n]['tracebacks']} tracebacks")


if __name__ == "__main__":
    main()
