"""Counting a chaos bag's outcomes exactly: how many orderings of the bag's physical tokens end
a skill test's chain of revealed tokens each way (``../shared/spec/rules.md`` §1b, ST.3–ST.6).

``chaos`` turns the tokens and effects into ``Kind`` rows and calls one of two counts:
``knapsack``, fast and the one every bag used before the richer effects (a token reveals at most
one more, modifiers add up), and ``walk``, which follows what can be drawn one token at a time,
for effects that reveal N more, cancel or double the other modifiers or raise the difficulty.
Both count in exact integers over the N! equally likely orderings.
"""

import math
from collections.abc import Sequence
from typing import NamedTuple

Key = tuple[int, bool, bool, int]  # (total, auto_fail, auto_succeed, harder)
# Once automatic failure or success is known the numbers no longer matter: folded to 0 so every
# outcome is canonical and the distribution small.
AUTO_FAIL: Key = (0, True, False, 0)
AUTO_SUCCEED: Key = (0, False, True, 0)


class OddsTooLong(Exception):
    """Working out the exact odds would take more steps than the caller's ``budget`` allows.

    A bag far beyond any real one (hundreds of tokens, many of them revealing another) makes the
    count grow large; a caller serving a page passes a budget and says so instead of waiting.
    """


class Budget:
    """Steps of counting left; None counts without a limit. Work is paid before it is done."""

    def __init__(self, steps: int | None, scale: int = 1) -> None:
        self.left, self.scale = steps, scale

    def spend(self, steps: int) -> None:
        if self.left is None:
            return
        self.left -= steps * self.scale
        if self.left < 0:
            raise OddsTooLong("The odds of this bag take too long to work out exactly.")


class Kind(NamedTuple):
    """One kind of token in the bag, with what revealing it does."""

    copies: int
    modifier: int
    auto_fail: bool
    auto_succeed: bool
    more: int  # how many more tokens it reveals (0: it ends the chain)
    others: int = 1  # multiplies the other revealed tokens' modifiers
    harder: int = 0  # raises the difficulty
    frost: bool = False  # a second frost in one test is an automatic failure


def _size(kinds: Sequence[Kind]) -> int:
    return sum(kind.copies for kind in kinds)


def knapsack(kinds: Sequence[Kind], budget: int | None = None) -> tuple[dict[Key, int], int]:
    """Count the orderings of the whole bag by the outcome of the chain they start with, for
    kinds that reveal at most one more and neither multiply nor raise anything.

    A chain is a set of tokens that reveal another (at most one frost among them), in any order,
    ended by the next token: one that ends the chain, a second frost (automatic failure), or
    nothing when the bag runs dry. A given set of K chaining tokens and a given ending token
    start K! (N - K - 1)! orderings, whatever the set; so the sets are counted by size, total
    and whether one succeeds automatically (a knapsack over the kinds of chaining token), and
    the work grows with the number of tokens, not with the product of their counts.

    ``budget`` caps the steps (one per entry the counting writes, more for a bigger bag, whose
    numbers are longer): OddsTooLong when over, before the work is done.
    """
    size = _size(kinds)
    steps = Budget(budget, 1 + size // 64)
    enders: dict[Key, int] = {}
    chainers: dict[tuple[int, bool], int] = {}  # (modifier, auto_succeed) -> copies
    frost = sum(kind.copies for kind in kinds if kind.frost)
    for kind in kinds:
        if kind.frost:
            continue  # the first frost chains, a second one ends the test: counted apart
        if kind.auto_fail:
            # Nothing revealed afterwards can undo an automatic failure, so the chain's end is
            # already known even when the effect asks for another token.
            key = AUTO_FAIL
        elif kind.more:
            pair = (kind.modifier, kind.auto_succeed)
            chainers[pair] = chainers.get(pair, 0) + kind.copies
            continue
        elif kind.auto_succeed:
            key = AUTO_SUCCEED
        else:
            key = (kind.modifier, False, False, 0)
        enders[key] = enders.get(key, 0) + kind.copies

    # sets[(k, total, succeeds)] = how many sets of k chaining tokens (no frost) add up so.
    sets: dict[tuple[int, int, bool], int] = {(0, 0, False): 1}
    for (modifier, auto_succeed), copies in chainers.items():
        steps.spend(len(sets) * (copies + 1))
        grown: dict[tuple[int, int, bool], int] = {}
        for (k, total, succeeds), ways in sets.items():
            for taken in range(copies + 1):
                grown_key = (
                    k + taken,
                    total + taken * modifier,
                    succeeds or (auto_succeed and taken > 0),
                )
                grown[grown_key] = grown.get(grown_key, 0) + ways * math.comb(copies, taken)
        sets = grown

    steps.spend(2 * len(sets) * (len(enders) + 1) + size)
    factorial = [math.factorial(n) for n in range(size + 1)]
    weights: dict[Key, int] = {}

    def add(key: Key, amount: int) -> None:
        weights[key] = weights.get(key, 0) + amount

    def ended_by(total: int, succeeds: bool, end: Key | None) -> Key:
        if end is not None and end[1]:
            return AUTO_FAIL
        if succeeds or (end is not None and end[2]):
            return AUTO_SUCCEED
        return (total + (end[0] if end else 0), False, False, 0)

    for (k, total, succeeds), ways in sets.items():
        # With no frost in the chain, or with one of the frosts (frost ways to pick it).
        for frosts, frost_ways in ((0, 1), (1, frost)):
            if not frost_ways:
                continue
            length = k + frosts
            chain_total = total - frosts
            count = ways * frost_ways * factorial[length]
            if length == size:  # the bag ran dry: resolve with what was revealed
                add(ended_by(chain_total, succeeds, None), count)
                continue
            rest = factorial[size - length - 1]
            for end, copies in enders.items():
                add(ended_by(chain_total, succeeds, end), count * copies * rest)
            if frosts:  # the next token is a second frost
                add(AUTO_FAIL, count * (frost - 1) * rest)
    return {key: weight for key, weight in weights.items() if weight}, factorial[size]


def _ending(kinds: Sequence[Kind], drawn: Sequence[int]) -> Key:
    """The outcome of a chain that revealed ``drawn[i]`` tokens of each kind."""
    if any(n and (kind.auto_fail) for kind, n in zip(kinds, drawn, strict=True)):
        return AUTO_FAIL
    if sum(n for kind, n in zip(kinds, drawn, strict=True) if kind.frost) >= 2:
        return AUTO_FAIL
    if any(n and kind.auto_succeed for kind, n in zip(kinds, drawn, strict=True)):
        return AUTO_SUCCEED
    total = harder = 0
    for index, (kind, n) in enumerate(zip(kinds, drawn, strict=True)):
        if not n:
            continue
        # Each of these n tokens is multiplied by the other n - 1 of its kind and by every
        # token of the other kinds.
        factor = kind.others ** (n - 1)
        for other, (other_kind, m) in enumerate(zip(kinds, drawn, strict=True)):
            if other != index:
                factor *= other_kind.others**m
        total += n * kind.modifier * factor
        harder += n * kind.harder
    return (total, False, False, harder)


def walk(kinds: Sequence[Kind], budget: int | None = None) -> tuple[dict[Key, int], int]:
    """Count the orderings by outcome, following the draws one token at a time.

    What a chain has revealed so far fixes everything about it (what it still asks for, its
    frosts, whether it failed), so the draws so far are kept as the tokens left of each kind,
    and every way of reaching the same tokens left is counted together: the work grows with
    the number of different partial chains, which real bags keep small. A partial chain of j
    tokens reached in w ways, drawing a token of a kind with c copies left, is reached in w·c
    ways; a chain of j tokens that ends stands for (N - j)! orderings of the rest.
    """
    size = _size(kinds)
    steps = Budget(budget, 1 + size // 64)
    factorial = [math.factorial(n) for n in range(size + 1)]
    full = tuple(kind.copies for kind in kinds)
    # tokens left of each kind -> (ways, tokens still asked for, frosts revealed)
    layer: dict[tuple[int, ...], tuple[int, int, int]] = {full: (1, 1, 0)}
    weights: dict[Key, int] = {}
    length = 0
    while layer:
        length += 1
        steps.spend(len(layer) * len(kinds))
        grown: dict[tuple[int, ...], tuple[int, int, int]] = {}
        for left, (ways, pending, frosts) in layer.items():
            for index, kind in enumerate(kinds):
                copies = left[index]
                if not copies:
                    continue
                now = (*left[:index], copies - 1, *left[index + 1 :])
                reached = ways * copies
                asked = pending - 1 + kind.more
                frozen = frosts + kind.frost
                if kind.auto_fail or frozen >= 2 or asked <= 0 or length == size:
                    drawn = [whole - part for whole, part in zip(full, now, strict=True)]
                    key = _ending(kinds, drawn)
                    weights[key] = weights.get(key, 0) + reached * factorial[size - length]
                    continue
                before = grown.get(now)
                grown[now] = (reached + (before[0] if before else 0), asked, frozen)
        layer = grown
    return {key: weight for key, weight in weights.items() if weight}, factorial[size]
