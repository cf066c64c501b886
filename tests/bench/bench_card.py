"""Benchmark the odds of every scenario card: for each line of each card (both sides, each act,
each alternative on), the pass table the bag page draws, on the campaign's starting bag with 5
bless and 5 curse added, X given as 3.

Run from anywhere: ``.venv/bin/python tests/bench/bench_card.py``. It prints figures and asserts
nothing about time (machines differ); pytest does not collect it (the name is bench_*).

On the shared two-core machine (issue 20): 400 tables, median 0.5 ms, 90th percentile 8.7 ms,
slowest 91 ms (The Wages of Sin, Hard/Expert, its alternatives on: the walk, 23 tokens); none
over the page's budget.
"""

import os
import statistics
import sys
import time
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup()

from campaigns.engines import chaos  # noqa: E402
from campaigns.games.arkham import card, data  # noqa: E402
from campaigns.games.arkham.bag_page import MARGINS, ODDS_BUDGET, TABLE_DIFFICULTY  # noqa: E402

DIFFICULTY = {"easy_standard": "standard", "hard_expert": "expert"}


def tables():
    """(what, bag, effects) for every card side, act and combination of alternatives on."""
    for campaign, facts in card.CARDS.items():
        for ref, scenario in facts["scenarios"].items():
            for act, sides in (("", scenario), *scenario.get("variants", {}).items()):
                for side, difficulty in DIFFICULTY.items():
                    lines = {s: line for s, line in sides[side].items() if line}
                    bag = {**data.BAGS[campaign][difficulty], "bless": 5, "curse": 5}
                    for on in (0, 1):
                        raw = {
                            s: card.effect(line, on * card.alternatives(line))
                            for s, line in lines.items()
                        }
                        effects = chaos.with_x(raw, {s: 3 for s in raw})
                        yield f"{campaign}/{ref}{act and '/' + act}/{side}/alt {on}", bag, effects


def main() -> None:
    times = []
    for what, bag, effects in tables():
        start = time.perf_counter()
        chaos.pass_table(bag, effects, TABLE_DIFFICULTY, MARGINS, budget=ODDS_BUDGET)
        times.append((time.perf_counter() - start, what, sum(bag.values())))
    times.sort()
    ms = [t * 1000 for t, _what, _n in times]
    print(f"Pass tables of every scenario card's side, act and alternatives: {len(times)}")
    print(f"  median {statistics.median(ms):.2f} ms, 90th {ms[int(len(ms) * 0.9)]:.2f} ms")
    for seconds, what, size in times[-3:]:
        print(f"  slowest: {seconds * 1000:.2f} ms  {what} ({size} tokens)")


if __name__ == "__main__":
    main()
