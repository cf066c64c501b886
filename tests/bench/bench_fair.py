"""Fair share: what one busy campaign does to another campaign's taps and pushes.

Run by hand: `.venv/bin/python tests/bench/bench_fair.py`: SQLite, then PostgreSQL beside it (at
DATABASE_URL or COMPANION_BENCH_PG, else a throwaway local cluster when this runs as root on a
machine with Debian's PostgreSQL, as bench_scale.py does). One real uvicorn process per
database, as the server tests start it. Prints figures; asserts nothing.

A quiet campaign (Any game) has a member tapping a counter every 0.2 s and another phone whose
stream shows its table page. Measured: the tap's answer (POST to answer) and the push (POST to
the page reaching the other phone's stream), medians and p95, in three runs side by side:

- idle: nothing else on the server;
- draws: one member of another campaign (Arkham) runs 8 loops of chaos-bag draws as fast as the
  server answers (each loop sends the version it last saw, as a phone does);
- pushes: 40 streams of that other campaign, each on its own bag-page address
  (`?skill=K&difficulty=D`, so none shares a drawing), and a change there every 0.5 s.

Issue 19's target: in both busy runs the quiet campaign's medians stay within 3x of idle. The
bench's own phones run on the same two cores as the server, so a busy run also loads the client.

2026-12-03, the 2-core machine quiet (load average 1.2-1.8), medians in ms, tap / push:
- before the lanes (first come first served on four threads, measured for issue 19): idle 22 /
  37; draws 541 (24.6x); 40 streams' pushes 54.7 s (1,479x).
- the lanes, the tap limit off (BENCH_TAPS_PER_SECOND=0): SQLite idle 20.3 / 20.5, draws
  27.4 / 37.3 (1.3x / 1.8x), pushes 17.1 / 21.8 (0.8x / 1.1x); PostgreSQL idle 17.5 / 24.9,
  draws 34.0 / 48.6 (1.9x / 2.0x), pushes 22.6 / 32.6 (1.3x / 1.3x).
- the lanes and the tap limit (8 a second, as hosted): SQLite draws 44.4 / 53.9 (2.4x / 2.7x),
  pushes 20.4 / 22.3 (1.1x / 1.1x); PostgreSQL draws 49.2 / 67.6 (2.8x / 2.7x), pushes 23.3 /
  30.4 (1.3x / 1.2x). Refused at once, the script sends about 600 a second (6,000 refusals
  in a run): the refusals themselves are then what loads the loop and the shared cores.

2026-12-04, a slower 2-core machine (a plain Python loop took 1.2-2.0 s where it takes about
0.5 s elsewhere), quiet (load average 0.7-1.4 before each run), medians in ms, tap / push:
- as above (lanes, tap limit): SQLite idle 34.1 / 44.8, draws 127.1 / 195.2 (3.7x / 4.4x),
  pushes 58.2 / 96.7 (1.7x / 2.2x); PostgreSQL idle 27.4 / 48.7, draws 89.8 / 140.7 (3.3x /
  2.9x), pushes 67.1 / 105.2 (2.5x / 2.2x): 2,352-3,407 refusals a run.
- the refusal held a second (companion/taps.py): draws 31.1 / 45.2 (1.1x / 1.2x) and 26.6 /
  49.6 (1.1x / 1.1x), 96 refusals a run; but pushes 115.5 / 162.5 (4.2x / 4.5x) and 78.9 /
  118.5 (3.2x / 2.6x): beside the busy table's drawing thread the quiet table's requests waited
  for the interpreter's lock in 5 ms turns at every query.
- and 0.5 ms turns (sys.setswitchinterval, companion/asgi.py): SQLite idle 28.0 / 41.8, draws
  30.8 / 44.8 (1.1x / 1.1x), pushes 42.2 / 72.2 (1.5x / 1.7x); PostgreSQL idle 23.6 / 39.1,
  draws 31.7 / 53.3 (1.3x / 1.4x), pushes 50.5 / 85.2 (2.1x / 2.2x).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.bench.common import percentile, postgresql, use_database  # noqa: E402
from tests.server import Database, Phone, Site  # noqa: E402

TAPS = int(os.environ.get("BENCH_TAPS", "40"))
HTMX = {"HX-Request": "true"}


def campaign_of(response: httpx.Response) -> int:
    assert response.status_code == 302, (response.status_code, response.text[:500])
    return int(re.search(r"/c/(\d+)/", response.headers["location"])[1])


class Tables:
    """The quiet table (a tapper and a watcher) and the busy one (its owner)."""

    def __init__(self, site: Site) -> None:
        self.url = site.url
        self.tapper = Phone(site.url)
        self.tapper.signup(f"quiet{time.monotonic_ns()}")
        self.quiet = self.tapper.create_campaign("Quiet table", counters="Doom")
        page = self.tapper.get(f"/c/{self.quiet}/").text
        self.doom = int(re.search(r'name="tracker" value="(\d+)"', page)[1])
        self.watcher = Phone(site.url)
        self.watcher.join(self.tapper.invite_path(self.quiet), "Watcher")
        self.watcher.csrf()
        self.busy_owner = Phone(site.url)
        self.busy_owner.signup(f"busy{time.monotonic_ns()}")
        setup = {"name": "Busy table", "campaign": "notz", "difficulty": "standard"}
        self.busy = campaign_of(self.busy_owner.post("/new/arkham/", setup))
        investigator = {"name": "Roland Banks", "player": "Olive", "health": 9, "sanity": 5}
        answer = self.busy_owner.post(f"/c/{self.busy}/do/investigator.add/", investigator)
        assert answer.status_code == 302, answer.text[:500]

    def close(self) -> None:
        for phone in (self.tapper, self.watcher, self.busy_owner):
            phone.close()


async def quiet_taps(tables: Tables) -> tuple[list[float], list[float]]:
    """The quiet table's taps: (tap answers, pushes to the watcher), in seconds."""
    answers: list[float] = []
    pushes: list[float] = []
    posted: dict[int, float] = {}
    limits = httpx.Limits(keepalive_expiry=2)
    async with (
        httpx.AsyncClient(
            base_url=tables.url,
            cookies=dict(tables.watcher.http.cookies),
            timeout=60,
            limits=limits,
        ) as watcher,
        httpx.AsyncClient(
            base_url=tables.url, cookies=dict(tables.tapper.http.cookies), timeout=60, limits=limits
        ) as tapper,
    ):
        version = int(tables.tapper.get(f"/c/{tables.quiet}/version/").json()["version"])
        seen = asyncio.Event()
        reached: dict[int, float] = {}

        async def watch() -> None:
            path = f"/c/{tables.quiet}/stream/?v={version}&page=/c/{tables.quiet}/"
            async with watcher.stream("GET", path) as response:
                async for line in response.aiter_lines():
                    if line.startswith("data:"):
                        data = json.loads(line[5:])
                        if "html" in data and data["version"] in posted:
                            reached[data["version"]] = time.perf_counter()
                            seen.set()

        task = asyncio.create_task(watch())
        await asyncio.sleep(1)
        token = tables.tapper.csrf()
        for _ in range(TAPS):
            seen.clear()
            start = time.perf_counter()
            posted[version + 1] = start
            response = await tapper.post(
                f"/c/{tables.quiet}/do/counter.adjust/",
                data={"tracker": tables.doom, "delta": 1, "region": f"tracker-{tables.doom}"},
                headers={**HTMX, "X-CSRFToken": token},
            )
            answers.append(time.perf_counter() - start)
            assert response.status_code == 200, (response.status_code, response.text[:300])
            version = int(response.headers["X-Campaign-Version"])
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.wait(), 30)
            if version in reached:
                pushes.append(reached[version] - posted[version])
            await asyncio.sleep(0.2)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    return answers, pushes


async def draw_loops(tables: Tables, loops: int, stop: asyncio.Event, counts: dict) -> None:
    """One member's `loops` loops of chaos-bag draws, as fast as the server answers."""
    cookies = dict(tables.busy_owner.http.cookies)
    token = tables.busy_owner.csrf()
    async with httpx.AsyncClient(base_url=tables.url, cookies=cookies, timeout=60) as client:
        version = {"v": (await client.get(f"/c/{tables.busy}/version/")).json()["version"]}

        async def loop() -> None:
            while not stop.is_set():
                data = {"page": "bag", "region": "bag-actions", "version": version["v"]}
                response = await client.post(
                    f"/c/{tables.busy}/do/bag.draw/",
                    data=data,
                    headers={**HTMX, "X-CSRFToken": token},
                )
                counts[response.status_code] = counts.get(response.status_code, 0) + 1
                if "X-Campaign-Version" in response.headers:
                    version["v"] = int(response.headers["X-Campaign-Version"])
                if response.status_code == 429:
                    await asyncio.sleep(0)  # (a script: straight back at it)

        await asyncio.gather(*(loop() for _ in range(loops)))


async def hostile_streams(tables: Tables, count: int, stop: asyncio.Event, counts: dict) -> None:
    """`count` streams on distinct bag-page addresses of the busy campaign, and a change there
    every 0.5 s."""
    cookies = dict(tables.busy_owner.http.cookies)
    token = tables.busy_owner.csrf()
    limits = httpx.Limits(max_connections=count + 10, keepalive_expiry=2)
    async with httpx.AsyncClient(
        base_url=tables.url, cookies=cookies, timeout=120, limits=limits
    ) as client:

        async def stream(number: int) -> None:
            page = f"/c/{tables.busy}/p/bag/?skill={number % 9}&difficulty={number // 9}"
            path = f"/c/{tables.busy}/stream/?v=0&page={page}"
            async with client.stream("GET", path, params=None) as response:
                async for line in response.aiter_lines():
                    if line.startswith("data:") and '"html"' in line:
                        counts["pages"] = counts.get("pages", 0) + 1
                    if stop.is_set():
                        return

        async def changes() -> None:
            step = 0
            while not stop.is_set():
                step += 1
                data = {"delta": 1 if step % 2 else -1, "page": "round", "region": "round-doom"}
                await client.post(
                    f"/c/{tables.busy}/do/round.doom/",
                    data=data,
                    headers={**HTMX, "X-CSRFToken": token},
                )
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(stream(n)) for n in range(count)]
        tasks.append(asyncio.create_task(changes()))
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def run(tables: Tables, busy: str) -> tuple[list[float], list[float], dict]:
    stop = asyncio.Event()
    counts: dict = {}
    load = None
    if busy == "draws":
        load = asyncio.create_task(draw_loops(tables, 8, stop, counts))
    elif busy == "pushes":
        load = asyncio.create_task(hostile_streams(tables, 40, stop, counts))
    if load is not None:
        await asyncio.sleep(2)  # the load under way
    answers, pushes = await quiet_taps(tables)
    stop.set()
    if load is not None:
        await asyncio.gather(load, return_exceptions=True)
    return answers, pushes, counts


def measure(label: str, url: str | None) -> dict:
    use_database(url)
    print(f"… measuring {label}", file=sys.stderr, flush=True)
    database = Database()
    results = {}
    try:
        # As a hosted site runs: the limit on a member's pace on (tests/server.py turns it off);
        # BENCH_TAPS_PER_SECOND=0 measures the lanes alone.
        site = Site(
            database, COMPANION_TAPS_PER_SECOND=os.environ.get("BENCH_TAPS_PER_SECOND", "8")
        )
        try:
            tables = Tables(site)
            for busy in ("idle", "draws", "pushes"):
                results[busy] = asyncio.run(run(tables, busy))
            tables.close()
        finally:
            site.close()
        results["tracebacks"] = site.output().count("Traceback")
    finally:
        database.close()
    return results


def main() -> None:
    print(f"load average before: {os.getloadavg()}")
    runs = {"SQLite": measure("SQLite", None)}
    # DATABASE_URL's PostgreSQL, else a throwaway local cluster (as bench_scale.py).
    with postgresql() as url:
        if url is None:
            print("PostgreSQL: not measured (no server given and none can be started here)")
        else:
            runs["PostgreSQL"] = measure("PostgreSQL", url)
    print(f"load average after: {os.getloadavg()}")
    print(f"the quiet campaign, {TAPS} taps, ms: median (p95); x idle median")
    print(f"{'database':11} {'run':7} {'tap answer':>16} {'x':>5} {'push':>16} {'x':>5}  busy side")
    for name, results in runs.items():
        idle_answer = statistics.median(results["idle"][0]) * 1000
        idle_push = statistics.median(results["idle"][1] or [float("nan")]) * 1000
        for busy in ("idle", "draws", "pushes"):
            answers, pushes, counts = results[busy]
            answer = statistics.median(answers) * 1000
            push = statistics.median(pushes or [float("nan")]) * 1000
            print(
                f"{name:11} {busy:7} {answer:8.1f} ({percentile(answers, 0.95) * 1000:5.0f})"
                f" {answer / idle_answer:5.1f} {push:8.1f} ({percentile(pushes, 0.95) * 1000:5.0f})"
                f" {push / idle_push:5.1f}  {counts or ''}"
                + (f"  pushes lost {TAPS - len(pushes)}" if len(pushes) < TAPS else "")
            )
        print(f"{name:11} tracebacks in the server's output: {results['tracebacks']}")


if __name__ == "__main__":
    main()
