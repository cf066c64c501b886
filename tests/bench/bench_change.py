"""What a change costs the server, against a bare Django view on the same server over HTTP.

Run by hand: `.venv/bin/python tests/bench/bench_change.py`. Prints figures; asserts nothing.
One real uvicorn process (as `make run` starts it, on a throwaway SQLite database) serves a
bare view (`HttpResponse("ok")` behind the same middleware) and the site. The figure is the
server process's CPU time per request (user + system, from /proc), so the client's own work
and the network do not count. Issue 12's target: a change at most 3x a bare view.

Every campaign page answers a change with the regions it changed ({% region %}). The kinds of
request take turns in blocks of 20, so each is measured under the same load on the machine.
On 2026-12-02, a quiet 2-core machine, three runs, server CPU ms per request: bare view 9.1,
9.2, 8.5; Arkham chaos bag draw 27.5, 27.8, 24.8 (3.0x, 3.0x, 2.9x); counter +1 2.3x; round
doom 2.7x; the bag page's live refresh 1.2x. Before the shared live refresh and the cheaper
forms (0e17239, same machine, kinds one after the other): draw 4.6x, refresh 6.2x.
Later that day, with changes answered in one of four threads kept for them (companion/asgi.py):
bare view 6.4, draw 16.6 (2.6x), counter +1 11.8 (1.9x), round doom 13.7 (2.2x), refresh 1.2x.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.common import cpu_seconds  # noqa: E402
from tests.server import Database, Phone, Site  # noqa: E402

HTMX = {"HX-Request": "true"}
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))


BLOCK = 20  # requests of one kind in a row; the kinds take turns, block by block


def measure(site: Site, rows, rounds: int = ROUNDS) -> dict[str, tuple[float, float]]:
    """CPU ms per request in the server, and wall ms per request (median) seen by the client,
    for each kind of request. The kinds take turns in blocks of BLOCK requests, so a change and
    the bare view are measured under the same load on the machine, not one after the other
    (the ratio drifted by a third between runs on a busy machine)."""
    for _name, request in rows:
        for _ in range(20):  # warm up: templates, caches
            request()
    cpu = dict.fromkeys((name for name, _ in rows), 0.0)
    walls: dict[str, list[float]] = {name: [] for name, _ in rows}
    for _ in range(max(1, rounds // BLOCK)):
        for name, request in rows:
            before = cpu_seconds(site.process.pid)
            for _ in range(BLOCK):
                start = time.perf_counter()
                request()
                walls[name].append(time.perf_counter() - start)
            cpu[name] += cpu_seconds(site.process.pid) - before
    return {
        name: (cpu[name] * 1000 / len(walls[name]), statistics.median(walls[name]) * 1000)
        for name in cpu
    }


def ok(response, *codes: int) -> None:
    if response.status_code not in (codes or (200,)):
        raise SystemExit(f"{response.request.url}: {response.status_code}\n{response.text[:2000]}")


def main() -> None:
    database = Database()
    database.env["DJANGO_SETTINGS_MODULE"] = "tests.bench.bare_settings"
    site = Site(database)
    try:
        phone = Phone(site.url)
        phone.signup("bench")
        any_game = phone.create_campaign("Bench", counters="Doom\nClues 0 99", lists="Banished")
        doom = re.search(r'name="tracker" value="(\d+)"', phone.get(f"/c/{any_game}/").text)
        assert doom
        setup = {"name": "Bench", "campaign": "notz", "difficulty": "standard"}
        response = phone.post("/new/arkham/", setup)
        ok(response, 302)
        arkham = int(re.search(r"/c/(\d+)/", response.headers["location"]).group(1))
        investigator = {"name": "Roland Banks", "player": "Olive", "health": 9, "sanity": 5}
        ok(phone.post(f"/c/{arkham}/do/investigator.add/", investigator), 302)

        def bare():
            ok(phone.get("/bench/bare/"))

        def counter():
            data = {"tracker": doom.group(1), "delta": 1, "region": f"tracker-{doom.group(1)}"}
            ok(phone.post(f"/c/{any_game}/do/counter.adjust/", data, headers=HTMX))

        # A draw starts a test: the phone says which version it saw, as live.js does.
        page = phone.get(f"/c/{arkham}/p/bag/").text
        version = {"v": int(re.search(r'data-version="(\d+)"', page).group(1))}

        def draw():
            data = {"page": "bag", "region": "bag-actions", "version": version["v"]}
            response = phone.post(f"/c/{arkham}/do/bag.draw/", data, headers=HTMX)
            ok(response)
            version["v"] = int(response.headers.get("X-Campaign-Version", 0))

        step = {"n": 0}

        def round_doom():
            step["n"] += 1
            data = {"delta": 1 if step["n"] % 2 else -1, "page": "round", "region": "round-doom"}
            response = phone.post(f"/c/{arkham}/do/round.doom/", data, headers=HTMX)
            ok(response)
            # The draws take turns with these: the next one says it saw this change.
            version["v"] = int(response.headers.get("X-Campaign-Version", 0))

        def live_refresh():
            headers = {**HTMX, "X-Live-Refresh": "true"}
            ok(phone.get(f"/c/{arkham}/p/bag/", headers=headers))

        rows = [
            ("bare view", bare),
            ("Any game: counter +1 (htmx)", counter),
            ("Arkham: chaos bag draw (htmx)", draw),
            ("Arkham: round doom +1 (htmx)", round_doom),
            ("Arkham: bag page refresh (htmx)", live_refresh),
        ]
        results = measure(site, rows)
        base = results["bare view"][0]
        print(f"{ROUNDS} requests each, one uvicorn process, SQLite")
        print(f"{'request':36} {'server CPU ms':>13} {'x bare':>7} {'client ms':>10}")
        for name, (cpu, wall) in results.items():
            print(f"{name:36} {cpu:13.2f} {cpu / base:7.1f} {wall:10.2f}")
    finally:
        site.close()
        database.close()


if __name__ == "__main__":
    main()
