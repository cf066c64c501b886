"""How long the test loop takes (issue 22): `make test-fast` (promised under a minute of wall time
on this 2-core machine) and `make test` (under four minutes), one run each, with the wall time,
the CPU time of everything they ran (pytest's workers, the checks, the servers and browsers they
start) and the machine's load average before and after. The machine is shared: a wall time
means little without the load beside it, and the CPU time is the figure that moves only when
the suite does.

Run by hand from the project's root: `.venv/bin/python tests/bench/bench_suite.py` runs both
(`make test` takes minutes: every browser journey, the real-server tests and the sweeps);
`... bench_suite.py fast` runs `make test-fast` alone, `... full` `make test` alone, and
`--pytest-only` runs only the target's pytest command (as `make -n` prints it), without the
checks and collectstatic before it; `PYTEST_ARGS=--durations=20` also prints the slowest tests.
Prints figures; asserts nothing. A run that fails says so next to its figures.

Measured 2026-12-03 on the 2 cores seven engineers shared (load average 10-16 throughout, so
the wall times are three times what an idle machine gives; the CPU times are what to compare):
- before issue 22, the fast suite's pytest (1,084 tests): 165.6 s of CPU, 8 min 8 s of wall;
  `make test-fast` also ran collectstatic (8 s of CPU) and the checks (about 4 s).
- after (`fast --pytest-only`, 1,025 tests, sweeps in `make test`): 80.5 s of CPU, 4 min 38 s of
  wall at load 12.5-16.3 (not measured idle: 80 s of CPU on two cores is about 40 s of wall).
- idle (load average 0.7 before), after every branch of the day merged: `make test-fast` 44.4 s
  of wall, 78.5 s of CPU (1,063 tests); `make test` 309.6 s of wall, 365.7 s of CPU (1,234
  tests; pytest itself 302 s). With `--dist worksteal` the whole suite's pytest took 279 s
  (4 workers instead of 2: 297 s; the machine is busy enough that more workers do not help).

Measured 2026-12-04 on a slower 2-core machine (a plain Python loop of 10 M additions took
1.2-2.0 s; the same fast suite's CPU time 1.8 times the figure above), load average 1.6-1.9
before: `make test-fast` 78.0 s of wall, 140.7 s of CPU (1,122 tests; pytest 64.6 s); `make
test` 501.3 s of wall, 604.6 s of CPU (1,295 tests; pytest 483.6 s). The whole suite with 3
workers and `--dist load` took 501.8 s (no better: the suite is CPU-bound); with 3 and
`--dist worksteal`, a worker that stole database tests after a browser journey met Playwright's
event loop still marked running in its thread, and Django refused their database set-up.

Measured 2026-12-04 later, same machine, after four changes: one mypy run instead of two (the
second's options kept it off mypy's cache), the journeys in chromium-headless-shell instead of
the full browser's headless mode (the 72 journeys 268 s -> 183 s of wall on two workers), selects
and textareas written without templates (the chaos bag page 39 -> 30 ms), and two sweeps that no
longer parse each page several times with Python's HTML parser. Load average 2.2 before (a
duplicate finder had just run): `make test-fast` 53.0 s of wall, 98.4 s of CPU (1,142 tests;
pytest 50.4 s); `make test` 292.5 s of wall, 371.0 s of CPU (1,315 tests; pytest 289.0 s). Earlier
runs that afternoon: 51.7 s and 282.6 s. The CPU figure here counts what the suite's processes
reap: Chromium's renderers are not among them, and the machine's own counter (/proc/stat) read
482 s for the 282.6 s run, both cores busy throughout (vmstat: 2-5 % idle during the journeys).
So three workers do not help (`-n 3 --dist load`: 277.7 s of pytest against 284.0 s), and
Chromium flags tried (no site isolation, one renderer, in-process GPU, no smooth scrolling) moved
nothing beyond noise. What is left to gain is CPU: page drawing (the journeys' server and every
sweep) and the journeys' own page loads.

Measured 2026-12-06 on a 2-core machine whose speed moved by a third within a minute (a plain
Python loop of 10 M additions took 1.05-1.51 s, five runs two seconds apart), load average 0.6
before: `make test-fast` 59.0 s of wall, 108.2 s of CPU (1,143 tests; pytest 53.2 s; another run
minutes later, pytest alone, 70.2 s); `make test` 318.9 s of wall, 416.2 s of CPU (1,315 tests;
pytest 315.4 s; 310.6 s and 297.9 s in earlier runs that day). Where that time goes, read off
/proc while the 72 browser journeys ran alone (188.9 s of wall, about 337 s of the two cores):
Chromium 207 s (its renderers' main threads about half of it; about 57 ms of Chromium's CPU for
every navigation, even to an empty document, 794 navigations in all), the site's servers 71 s,
Playwright's driver 21 s, the test workers 16 s. A page drawn in the process takes 15-19 ms
(three queries; the templates about three fifths). What was tried that day and left out, each
measured: uvicorn with httptools and uvloop (the server's CPU for 450 requests 4.75 s against
4.8 s, four interleaved rounds), the form fields written in Python instead of
campaigns/field.html (within the machine's noise, under 5 % of a page), service workers blocked
in the journeys (Chromium's browser process 56 -> 47 s, its renderers unchanged, and the offline
journeys need them).

Measured 2026-12-06 later, a machine whose 10 M-addition loop took 1.23-1.74 s. Before the day's
changes, the whole suite's pytest read off /proc/stat: 311 s of wall, 539.5 s of the two cores
busy and 77 s idle (12.5 %); by process (a second run, 292.9 s of wall, 508 s busy): the pytest
workers 215 s, Chromium 177 s, the sites' uvicorn 73 s, Playwright's driver 18 s. In Chromium, a
navigation to an empty page costs 38-50 ms of the machine's CPU; to an Arkham campaign page with
JavaScript off, about 97 ms (28 ms of it the server's); the first Playwright query on a new
document about 45 ms more (its script set up in the page), each later one 5-7 ms. Setting a
journey's scene through the forms (sign-up, a new Any game) took 1.4 s of CPU, posting what the
forms post 0.5 s: the journeys now post (tests/journeys.py), 316.6 -> 290.1-300.4 s of CPU for
the 71 journeys. Three sweeps were marked as such. After: `make test-fast` 56.5 s of wall, 105.8 s
of CPU (1,152 tests; 64.1 and 69.1 s in runs minutes apart), `make test` 294.4 s of wall, 389.3 s
of CPU (1,340 tests; `.ci/run`'s pytest 297.0 s). Tried and left out, each measured: a device
scale factor of 1 (no change), Chromium without RenderDocument (12 ms less per empty navigation,
nothing seen on four journey files), three workers (idle 13 % -> 4 %, but 10 % more CPU, the same
wall), Django's test-client template instrumentation off (2-10 % of a page in process).

Measured 2026-12-06, evening, on a machine slower than that afternoon's (the 10 M-addition loop
1.38-2.35 s). The whole suite's pytest took 293-332 s in six runs of the same tests. Sampling
/proc/stat every second showed the cores idle 64-79 core-seconds a run (10-12 %), about 20 of
them tests that wait on purpose (a database connect timeout, a session expiring, a restart).
Ordering the waiting tests beside the journeys moved nothing measurable. It also showed that
pytest-django's order is load-bearing: once Playwright has started on a worker, its event loop
stays marked running in that thread, and a database test after a journey on the same worker
fails with SynchronousOnlyOperation. Two changes that day: the test sites share one collected
static folder and one migrated SQLite file per process, instead of a collectstatic (1.5 s of
CPU) and a migrate (0.9 s) each; and forms draw their hidden inputs with the tag directly (2.6 %
fewer Python calls over every page). The fast suite's pytest, interleaved with the commit
before the day's work: 50.4 and 51.7 s of wall, 96-98 s of CPU, against 54.4 s and 103 s (23
more tests). `make test-fast` 61.0 s of wall, 112.0 s of CPU (1,175 tests; pytest 56.3 s);
`make test` 337.6 s of wall, 446.3 s of CPU (1,363 tests; pytest 331.7 s; `.ci/run`'s pytest
328.5 s minutes before).

Measured 2026-12-07, past midnight (the 10 M-addition loop 1.30-1.31 s, load average 0.6
before). Three changes: WhiteNoise is made at the first static request instead of with every
test client's middleware chain (it read the static folder each time, about 7 ms a client: the
fast suite's CPU 102-117 -> 90-112 s in two interleaved rounds), the sand-timer journey moves
the phones' clocks on with Playwright's clock instead of waiting five real seconds (11.5 ->
4.7 s), and one site fewer is started. `make test-fast` 52.7 s of wall, 96.7 s of CPU (1,180
tests; pytest 48.7 s); `make test` 289.1 s of wall, 385.6 s of CPU (1,369 tests; pytest 284.2 s;
`.ci/run`'s pytest 299.5 and 322.1 s that hour). Tried and left out: a device scale factor of 1
again (72.8-79.6 against 74.3-76.1 core-seconds, /proc/stat, on five journey files), and a
cheaper membership query (its five-table select_related compiles in 1.6 ms of its 1.9-2.5;
three tables would save about 0.5 ms of a 15-19 ms page).

Measured 2026-12-07, 02:00 (the 10 M-addition loop 1.25 s; load average 1.5-3.0 before).
`make test-fast` 61.6 s of wall, 112.8 s of CPU, then 56.2 and 55.9 s (104 s of CPU) minutes
later; `make test` 334.9 s of wall, 455.0 s of CPU (1,369 tests; pytest 329.8 s). The same
suite's pytest took 279.2, 307.4 and 319.0 s earlier that hour: the machine's own speed moves
the figure by a sixth. The journeys alone: 158-179 s of wall, 285-327 core-seconds busy
(/proc/stat), of which Chromium 192, the sites' uvicorn 74, Playwright's driver 20 and the test
workers 20. A tap on an Any game with a second phone watching costs about 120 ms of Chromium's
CPU (its renderers 80) and 90 ms of the server's (the answer's regions and one drawing per role
pushed); a page load of a campaign, about 100 ms of Chromium's (72 with JavaScript off); a phone
set up (its context, sign-up and a new campaign) about 0.65 core-seconds. Three changes: the
journeys that open a new campaign next sign up without loading the home page (38 of the 550
page loads), a field of an unbound form skips looking for its errors (2-4 % of the Python calls
of a campaign page, 8 % of Aeon's End's legacy page, the HTML the same), and the never-answering
database's test waits a second per request (COMPANION_DB_WAIT) instead of four. Tried and left
out, each measured: hidden inputs without Django's bound fields (3-7 us a form, about 1 % of a
93-form page), an Arkham select's chosen value read once (0.5 % of the calls), buttons without
`text-wrap: balance` (the Noir journey's renderer CPU 11.5-13.5 against 12.5-14.3 s), Playwright's
assertions at a 2.4 s timeout, where its polling waits 100 ms at most instead of 500 (32 journeys
97.9 -> 95.3 s of wall, three failed on time: the waits are not where the time goes), and the
cyclic garbage collector (1.9 s of two sweeps' 60).

Measured 2026-12-07, morning (the 10 M-addition loop 1.17-2.0 s within the hour). Before the
day's changes: `make test` 331.0 s of wall, 454.9 s of CPU (load average 4.6 before). Chrome's
own profiler on a tapping phone showed where a journey's renderer went: Playwright's `expect`,
each time a poll finds its condition not yet true, builds an accessibility snapshot of its
element for the message it would fail with, and `tap` waited for `#live-root` (the whole page)
so at every tap: 10 draws on the chaos bag page with a second phone watching, 3.3 s of the
tapping phone's renderer, 1.4 s once the version is waited for by a function run in the page
(five journey files, interleaved: 95-96 -> 81-88 core-seconds). Journeys that checked a layout
once per screen size or colour scheme now set the scene once and draw the page again at each
size (the table fold 13.8 -> 10.4 s, the icons 6.7 -> 4.6 s, alone); two extra server processes
start once a module. The tests' summed durations (pytest --durations, both workers): 575 -> 522
s; the journeys 272 -> 208 s, the sweeps 150 -> 138 s (machine speed), the fast tests 102 -> 95
s, the server tests 49 -> 50 s. After: `make test` 272.5 s of wall, 370.5 s of CPU (loop 1.24 s,
load average 2.3 before); an hour later, on a slower machine (loop 2.0 then 1.46 s), `make
test-fast` 60.3 s of wall, 111.9 s of CPU and `make test` 286.6 s, 394.0 s of CPU. What is left
is drawing pages: the sweep of every page after every command (57 s of the 138, its pages 10-43
ms each, about 10 ms of which any page costs: the session, the user, the membership, the
skeleton) and the journeys' taps (a Noir game: 50 taps on a page of 93 forms). Considered and
left out: checking the live regions sweep on the page drawn with every region skipped (regions
mode with none wanted), several times cheaper but no longer the page a phone gets.

Measured 2026-12-07, second session (the 10 M-addition loop 1.21-1.31 s when fast, 2.4 s an hour
in). At the start: `make test` 241.1 s of wall, the machine's cores 420 s busy and 59 s idle
(/proc/stat); by process, another run (244 s): the pytest workers 204 s, Chromium 130 (renderers
78, browser process 36), the sites' uvicorn 65, Playwright's driver 14. Changes: journeys that
waited for a phone's own timer (a change not sent goes again after 3 s, a polling page asks
every 2 s, what a live refresh shows is kept 1.5 s later) move that phone's clock on with
Playwright's clock (six journeys, 2-4 s each alone); the script-tapping test sends 32 taps, not
60 (each refusal more was a second held); the idle-streams test watches five looks, not twelve;
and live.js moves a changed region over from the parsed page instead of copying it, and asks
once a region whether it waits, not once a form (the watching phone's script for 11 draws on the
chaos bag page 262 -> 105 ms, Chrome's profiler; the journeys' CPU unchanged within noise).
After: `make test-fast` 44.7 s of wall, 82.2 s of CPU (1,185 tests); `make test` 238.8 s of wall,
338.4 s of CPU (load average 1.8 before, loop 1.23-1.31 s); `.ci/run`'s pytest 258.0 s
(SQLite) and 279.0 s (PostgreSQL) minutes later. Under four minutes only on a fast hour.
Tried and left out, each measured: the tests that wait on purpose in a pytest of their own
beside the two workers (idle 54 -> 35 core-seconds, but busy 485 -> 509: the same wall, 271.5
against 273.7 s, as with three workers before); a service worker that answers a kept static
file without fetching it again (Chromium already took the page's static files from the worker
without a second fetch in every case observed, so nothing to gain). Where a tap's server time
goes (py-spy on a two-phone chaos bag session): the pushed page drawings 55 %, the change and
its answer 10 %, the event loop and HTTP 28 %. Each version is drawn once per push key, the
tapping phone's own key too, though its answer already shows that version: skipping it needs
an id per tab on both the stream and the tap (the phone's id is per browser, shared by its tabs).

Measured 2026-12-07, third session, with no change to the suite since the second. Each run now
prints the machine's speed before and after (the loop, timed in the venv's Python inside a
function: 0.50-0.56 s when fast; the 10 M-addition loop above, run as `python3 -c` at module
level, took 1.28-1.69 s at the same moments) and the cores' busy and idle seconds (/proc/stat).
`make test` 215.8 s of wall, 299.4 s of the suite's CPU, the cores 385.7 s busy and 42.0 s idle
(loop 0.56 s before, 0.51 after); `make test-fast` 40.2 s of wall, 75.9 s of CPU, just after.
The same `make test` took 224.2 s half an hour before (405.9 s busy, 38.7 idle) and 260.2 s an
hour before that (471.7 s busy, 44.7 idle), when the machine was slower: its busy seconds grew
with the wall time, the suite's work did not. Looked at again and left alone (the figures are
in the closing note of issue 22): uvicorn with httptools and uvloop (the journeys' server CPU
45.7-47.3 s against 66.7 s, but Chromium's renderers moved by the same third: the machine, not
the server), the Arkham table's investigator picker (a fifth of that page, which is a tenth of
the pages the suite draws). Then a phone's first page was kept without the worker asking the
server for it again (one page drawing fewer for each phone whose first page is one to keep;
the journeys open about 200 phones): `make test` 215.7 s of wall, 298.9 s of CPU, the cores
385.5 s busy and 42.1 idle (loop 0.54 s before), the same as before within noise; `.ci/run`'s
pytest 204.1 s (SQLite) and 240.4 s (PostgreSQL) just before.

Measured 2026-12-07, 08:40, the session after, on a new machine faster than that one (the loop
0.40-0.43 s): `make test-fast` 30.7 s of wall, 56.2 s of CPU (1,180 tests; pytest 28.2 s); `make
test` 174.1 s of wall, 231.2 s of the suite's CPU, the cores 306.2 s busy and 38.8 s idle (1,368
passed, 1 skipped; pytest 171.5 s). `.ci/run` just before: pytest 158.1 s (SQLite) and 211.7 s
(PostgreSQL). The project's CI had run the previous session's last commit at 253.7 s of SQLite
pytest: a slower machine than either, which is why each figure here comes with its loop.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = {"fast": "test-fast", "full": "test"}


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load() -> str:
    return " ".join(f"{figure:.2f}" for figure in os.getloadavg())


def speed() -> str:
    """How fast the machine is now: a plain Python loop of 10 M additions, timed. The shared
    machine's speed moves by a third within an hour (1.2 to 2.4 s), and the suite's wall time
    with it; a figure without this one cannot be compared with another."""
    start, total = time.perf_counter(), 0
    for n in range(10_000_000):
        total += n
    return f"{time.perf_counter() - start:.2f} s"


def cores() -> tuple[float, float]:
    """The machine's cores' busy and idle seconds so far (/proc/stat): what the suite's own CPU
    time misses (Chromium's renderers are not among the processes it reaps), and how much of
    the two cores it left unused. Zeros where there is no /proc."""
    try:
        fields = [int(n) for n in Path("/proc/stat").read_text().split("\n")[0].split()[1:9]]
    except OSError:
        return 0.0, 0.0
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq + steal) / tick, (idle + iowait) / tick


def pytest_line(target: str) -> str:
    """The target's pytest command, as the Makefile has it."""
    plan = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
    return [line for line in plan.stdout.splitlines() if "bin/pytest " in line][-1].strip()


def measure(command: str) -> None:
    print(f"$ {command}   (load average before: {load()}, loop {speed()})", flush=True)
    # As the Makefile runs it (it unexports PYTHONDONTWRITEBYTECODE), with --pytest-only too.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cpu, start, (busy, idle) = cpu_of_children(), time.monotonic(), cores()
    finished = subprocess.run(
        command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True
    )
    wall, cpu = time.monotonic() - start, cpu_of_children() - cpu
    busy, idle = (now - before for now, before in zip(cores(), (busy, idle), strict=True))
    summary = [line for line in finished.stdout.splitlines() if " in " in line and "passed" in line]
    print(f"  wall {wall:6.1f} s   cpu {cpu:6.1f} s   load average after: {load()}, loop {speed()}")
    print(f"  the machine's cores meanwhile: {busy:6.1f} s busy, {idle:6.1f} s idle (/proc/stat)")
    print(f"  {summary[-1].strip('= ') if summary else '(no pytest summary)'}")
    # PYTEST_ARGS=--durations=20 (the Makefile passes it on): the slowest tests too.
    lines = finished.stdout.splitlines()
    slowest = [n for n, line in enumerate(lines) if "slowest" in line and "durations" in line]
    if slowest:
        print("\n".join(f"  {line}" for line in lines[slowest[0] :] if "s " in line[:12]))
    if finished.returncode:
        print(f"  FAILED with status {finished.returncode}:")
        tail = (finished.stdout + finished.stderr).splitlines()[-30:]
        print("\n".join(f"  | {line}" for line in tail))


if __name__ == "__main__":
    only_pytest = "--pytest-only" in sys.argv
    wanted = [name for name in sys.argv[1:] if name in TARGETS] or ["fast", "full"]
    for name in wanted:
        measure(pytest_line(TARGETS[name]) if only_pytest else f"make {TARGETS[name]}")
