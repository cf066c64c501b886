"""Benchmark the chaos bag engine: a full pass table on a 50-token bag, and brute force beside it.

Run from anywhere: ``.venv/bin/python tests/bench/bench_chaos.py``. It prints figures and asserts
nothing about time (machines differ); pytest does not collect it (the name is bench_*).
"""

import math
import os
import sys
import time
from pathlib import Path

import django

# Runnable as a plain script, so the project root has to be importable without pytest's help.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from campaigns.engines.chaos import (  # noqa: E402
    TOKENS,
    OddsTooLong,
    pass_table,
    success_probability,
)
from tests.games.arkham.chaos_oracle import NOTZ_STANDARD, brute_force_probability  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup()  # for the page's budget, which lives with the page

from campaigns.games.arkham.bag_page import ODDS_BUDGET  # noqa: E402

# Night of the Zealot, Standard difficulty (16 tokens).
# Numbers added over a campaign to reach 30 tokens.
EXTRA_NUMBERS = {"+1": 2, "0": 3, "-1": 3, "-2": 3, "-3": 2, "-5": 1}
# Plausible scenario/investigator values; the cultist's "reveal another" makes it a chain token.
EFFECTS = {
    "skull": {"modifier": -1},
    "cultist": {"modifier": -2, "reveal_another": True},
    "tablet": {"modifier": -2},
    "elder_sign": {"modifier": 1},
}
DIFFICULTY = 3
MARGINS = range(-2, 7)
RUNS = 7

# Small enough for brute force: 9 physical tokens, 9! = 362,880 orderings.
SMALL_BAG = {
    "+1": 1,
    "0": 1,
    "-1": 1,
    "-2": 1,
    "skull": 1,
    "cultist": 1,
    "auto_fail": 1,
    "bless": 1,
    "curse": 1,
}


def combine(*bags: dict[str, int]) -> dict[str, int]:
    total: dict[str, int] = {}
    for bag in bags:
        for name, count in bag.items():
            total[name] = total.get(name, 0) + count
    return total


def best_ms(function, runs: int = RUNS) -> tuple[float, object]:
    best = math.inf
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best * 1000, result


def main() -> None:
    campaign_bag = combine(NOTZ_STANDARD, EXTRA_NUMBERS)
    big_bag = combine(campaign_bag, {"bless": 10, "curse": 10})
    size = sum(big_bag.values())
    print(
        f"Bag: Night of the Zealot Standard ({sum(NOTZ_STANDARD.values())}) "
        f"+ numbers to {sum(campaign_bag.values())} + 10 bless + 10 curse = {size} tokens"
    )
    print(f"Effects: {EFFECTS}")

    ms, table = best_ms(lambda: pass_table(big_bag, EFFECTS, DIFFICULTY, MARGINS))
    print(
        f"\nFull pass table, difficulty {DIFFICULTY}, margins {MARGINS.start}..{MARGINS.stop - 1}:"
    )
    for margin, chance in table.items():
        print(f"  {margin:+d}: {float(chance):6.1%}")
    print(f"Fast engine, {size}-token bag: {ms:.2f} ms (best of {RUNS})")

    small_size = sum(SMALL_BAG.values())
    skill = DIFFICULTY
    fast_ms, fast = best_ms(lambda: success_probability(SMALL_BAG, skill, DIFFICULTY, EFFECTS))
    table_ms, _ = best_ms(lambda: pass_table(SMALL_BAG, EFFECTS, DIFFICULTY, MARGINS))
    brute_ms, brute = best_ms(
        lambda: brute_force_probability(SMALL_BAG, skill, DIFFICULTY, EFFECTS), runs=3
    )
    orderings = math.factorial(small_size)
    print(
        f"\nSmall bag, {small_size} tokens ({orderings:,} orderings), "
        f"skill {skill} vs difficulty {DIFFICULTY}:"
    )
    print(f"  brute force:  {brute_ms:10.2f} ms  -> {brute} (best of 3)")
    print(f"  fast engine:  {fast_ms:10.3f} ms  -> {fast} (best of {RUNS})")
    print(f"  agree: {brute == fast}; speed-up x{brute_ms / fast_ms:,.0f}")
    print(
        f"  full table of {len(MARGINS)} margins: fast {table_ms:.3f} ms, "
        f"brute force about {brute_ms * len(MARGINS) / 1000:.1f} s (one enumeration per margin)"
    )

    big_orderings = math.factorial(size)
    per_ordering_s = brute_ms / 1000 / orderings
    years = big_orderings * per_ordering_s / (365.25 * 24 * 3600)
    print(
        f"\nBrute force on the {size}-token bag is infeasible: {size}! = {big_orderings:.3e} "
        f"orderings; at the measured {per_ordering_s * 1e9:.0f} ns per ordering that is "
        f"about {years:.1e} years for one probability."
    )

    # The worst a group can type: every symbol at the game's count and revealing another, with
    # full bless, curse and frost (campaigns/games/arkham/data.py TOKEN_LIMITS). The cost grows
    # with the number of tokens, not their product.
    worst = {**NOTZ_STANDARD, "bless": 10, "curse": 10, "frost": 8}
    worst_effects = {
        symbol: {"modifier": -1, "reveal_another": True}
        for symbol in ("skull", "cultist", "tablet", "elder_thing")
    }
    for symbol in worst_effects:
        worst[symbol] = 4
    chaining = sum(worst[t] for t in ("bless", "curse", "frost", *worst_effects))
    worst_ms, _table = best_ms(lambda: pass_table(worst, worst_effects, 3, MARGINS), 3)
    print(
        f"\nWorst case ({sum(worst.values())} tokens, {chaining} of them revealing another): "
        f"full table {worst_ms:.1f} ms (best of 3)"
    )

    # The bag page's budget: a 360-token bag (every token 20 times) with every symbol chaining
    # is refused before the work, the biggest real bag is well within it.
    huge = {name: 20 for name in TOKENS if name not in ("bless", "curse")}
    huge.update(bless=10, curse=10)
    chaining = {
        symbol: {"modifier": -n, "reveal_another": True}
        for n, symbol in enumerate(("skull", "cultist", "tablet", "elder_thing", "elder_sign"))
    }
    full_ms, _table = best_ms(lambda: pass_table(huge, chaining, 3, MARGINS), 1)

    def refused() -> None:
        try:
            pass_table(huge, chaining, 3, MARGINS, budget=ODDS_BUDGET)
        except OddsTooLong:
            return
        raise AssertionError("the huge bag fit the budget")

    refused_ms, _ = best_ms(refused)
    real = {**combine(NOTZ_STANDARD, EXTRA_NUMBERS), "bless": 10, "curse": 10, "frost": 4}
    real_ms, _ = best_ms(lambda: pass_table(real, chaining, 3, MARGINS, budget=ODDS_BUDGET))
    print(
        f"\n{sum(huge.values())}-token bag, every symbol chaining: full table {full_ms:.0f} ms; "
        f"with the page's budget ({ODDS_BUDGET:,} steps) refused in {refused_ms:.1f} ms. "
        f"A real {sum(real.values())}-token bag within the budget: {real_ms:.1f} ms"
    )


if __name__ == "__main__":
    main()
