"""What the chaos bag page shows: the bag's contents, the tests drawn and what each token did,
the exact odds of passing a test (the engine's ``campaigns.engines.chaos``), and how often each
token came out against how often it should."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.engines import chaos
from campaigns.games.arkham import card, data
from campaigns.games.arkham.bag import drawable, open_test, revealed_counts
from campaigns.games.arkham.bless_curse import resting_bag
from campaigns.games.arkham.catalogue import reader_name
from campaigns.games.arkham.common import XForm, effects_for, scenario_effects, signed, token_view
from campaigns.games.arkham.reveals import wants_another
from campaigns.games.arkham.state import ArkhamState, Test
from campaigns.games.arkham.symbols import elder_is_set
from campaigns.words import joined

# The bag and its tests


def effect_text(entry: Mapping[str, Any], per_x: int = 0) -> str:
    """What a revealed token did (or does: ``per_x`` −1 for "−X", 1 for "+X"), in words."""
    if entry.get("second_frost"):
        return _("a second frost: automatic failure")
    if entry["modifier"] is None:
        return _("automatic failure")
    number = signed(entry["modifier"])
    if per_x:
        x = "−X" if per_x < 0 else "+X"
        number = f"{x} {signed(entry['modifier'])}" if entry["modifier"] else x
    parts = [_("automatic success") if entry.get("succeed") else number]
    more = entry.get("more", 1)
    if entry["again"]:
        parts.append(_("reveal another") if more == 1 else _("reveal %(n)d more") % {"n": more})
    if entry.get("others") == 0:
        parts.append(_("cancels the other modifiers"))
    elif entry.get("others") == 2:
        parts.append(_("doubles the other modifiers"))
    if entry.get("harder"):
        parts.append(_("difficulty +%(n)d") % {"n": entry["harder"]})
    return joined(parts)


def outcome_text(test: Test) -> str:
    if test["auto_fail"]:
        return _("Automatic failure")
    if test["auto_succeed"]:
        return _("Automatic success")
    if test.get("harder"):
        return _("Modifier %(total)s, difficulty +%(n)d") % {
            "total": signed(test["total"]),
            "n": test["harder"],
        }
    return _("Modifier %(total)s") % {"total": signed(test["total"])}


def test_view(state: ArkhamState, test: Test) -> dict[str, object]:
    tokens = [
        token_view(
            e["token"],
            effect=effect_text(e),
            auto=e.get("auto"),
            n=i,
            symbol=e["token"] in chaos.SYMBOLS,
        )
        for i, e in enumerate(test["tokens"])
    ]
    if tokens:
        tokens[-1]["newest"] = True
    pending = test.get("open") and not test.get("offered") and wants_another(state, test)
    return {
        **test,
        "who": reader_name(test.get("who")),
        "tokens": tokens,
        "outcome": outcome_text(test) if tokens else "",
        "pending": pending,
        "offered": [token_view(t, pick=i) for i, t in enumerate(test.get("offered", []))],
        "set_aside": [token_view(t) for t in test.get("set_aside", [])],
        "x_given": [
            {"label": _("X for %(token)s") % {"token": data.TOKEN_LABELS[s]}, "value": v}
            for s, v in test.get("x", {}).items()
        ],
    }


def bag_view(state: ArkhamState) -> dict[str, object]:
    effects = effects_for(state, state.get("active"))
    per_x = {s: int(e.get("per_x", 0)) for s, e in effects.items()}
    effects = chaos.with_x(effects, {s: 0 for s, n in per_x.items() if n})
    out = revealed_counts(state)
    contents = []
    for token in chaos.TOKENS:
        count, sealed = state["bag"].get(token, 0), state["sealed"].get(token, 0)
        # Only a symbol takes an effect: the others read their fixed one without the engine
        # checking the effects again for each of them.
        revealed = chaos.reveal(token, effects if token in chaos.SYMBOLS else None)
        contents.append(
            token_view(
                token,
                count=count,
                out=out.get(token, 0),
                sealed=sealed,
                total=count + sealed,
                effect=effect_text(revealed._asdict(), per_x.get(token, 0)),
                pool=token in data.POOL_TOKENS,
                symbol=token in chaos.SYMBOLS,
                limit=data.TOKEN_LIMITS[token] - sealed,
            )
        )
    test = open_test(state)
    people = {i["id"]: i for i in state.get("investigators", [])}
    active = state["active"]
    own = people[active].get("symbols", {}) if active is not None and active in people else {}
    return {
        # What the investigator testing changes of the scenario's symbols, for their tests.
        "own_symbols": [
            token_view(s, effect=effect_text({**own[s], "again": own[s]["reveal_another"]}))
            for s in data.SCENARIO_SYMBOLS
            if s in own
        ],
        "contents": contents,
        "in_bag": [c for c in contents if c["count"]],
        "sealed": [c for c in contents if c["sealed"]],
        "pool": [c for c in contents if c["pool"]],
        "drawable": sum(drawable(state).values()),
        "test": test_view(state, test) if test else None,
        "draws": [test_view(state, d) for d in reversed(state.get("draws", []))],
    }


# The odds

MARGINS = range(-2, 7)
TABLE_DIFFICULTY = 2  # any difficulty of 1 or more gives the same table (the floor at 0 aside)
# Steps of counting one odds answer may take: the fullest bag the game allows (every token at
# its limit, every symbol revealing another with its own value) needs about 103,000; a bag
# beyond would hold the server, and gets a message instead.
ODDS_BUDGET = 250_000


def percent(chance: Fraction) -> str:
    """A chance as a percentage with one decimal, rounded half up, from the exact fraction."""
    tenths = chance * 1000
    rounded = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    return f"{rounded // 10}.{rounded % 10}%"


class OddsForm(XForm):
    """The typed skill and difficulty of the odds (a GET form), and X where an effect has one."""

    skill = forms.IntegerField(
        label=gettext_lazy("Skill"),
        min_value=0,
        max_value=40,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    difficulty = forms.IntegerField(
        label=gettext_lazy("Difficulty"),
        min_value=0,
        max_value=40,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def guesses(
    state: ArkhamState, active_id: object, bag: Mapping[str, int], xs: Mapping[str, int]
) -> list:
    """The symbol tokens in the bag whose effect the odds do not know, so count as 0: no effect
    entered for this scenario, no elder sign entered for the investigator testing, or an X
    not given."""
    people = {i["id"]: i for i in state.get("investigators", [])}
    own = people[active_id].get("symbols", {}) if active_id in people else {}
    entered = {**scenario_effects(state), **own}
    lines = card.lines(state)
    counts = held["x"] if (held := state.get("card")) else {}
    effects = effects_for(state, active_id)
    guessed = []
    for symbol in chaos.SYMBOLS:
        if not bag.get(symbol):
            continue
        if symbol == "elder_sign":
            known = active_id in people and elder_is_set(dict(people[active_id]["elder"]))
        else:
            known = symbol in entered or symbol in lines
        if not known:
            guessed.append(token_view(symbol, why=_("no effect entered")))
        elif effects.get(symbol, {}).get("per_x") and symbol not in xs:
            guessed.append(token_view(symbol, why=_("X not given: counted as 0")))
        elif (
            symbol not in entered
            and symbol in lines
            and lines[symbol]["modifier"] == "X"
            and card.x_key(lines[symbol]) not in counts
        ):
            what = card.X_LABELS.get(card.x_key(lines[symbol]), "")
            guessed.append(
                token_view(symbol, why=_("%(what)s not given: counted as 0") % {"what": what})
            )
    return guessed


def odds(state: ArkhamState, active_id: object, query: Mapping[str, str]) -> dict[str, object]:
    """The pass table for every margin, and the chance for the skill and difficulty typed in
    ``query`` (the page's GET parameters), if any."""
    bag = resting_bag(state)
    effects = effects_for(state, active_id)
    x_form = XForm(query, auto_id=False)
    given = x_form.cleaned_data if x_form.is_valid() else {}
    xs = {s: given[f"x_{s}"] for s in chaos.SYMBOLS if given.get(f"x_{s}") is not None}
    wanted = [s for s in chaos.SYMBOLS if effects.get(s, {}).get("per_x")]
    effects = chaos.with_x(effects, {s: xs.get(s, 0) for s in wanted})
    typed = "skill" in query or "difficulty" in query
    form = OddsForm(query if typed else None, auto_id=False)
    result: dict[str, object] = {
        "empty": not bag,
        "form": form,
        "typed": None,
        "too_long": False,
        "guesses": guesses(state, active_id, bag, xs),
        "x_tokens": [s for s in wanted if bag.get(s)],
        "x_form": x_form,
    }
    try:
        if typed and form.is_valid() and bag:
            chance = chaos.success_probability(
                bag,
                form.cleaned_data["skill"],
                form.cleaned_data["difficulty"],
                effects,
                budget=ODDS_BUDGET,
            )
            result["typed"] = percent(chance)
        if bag:
            table = chaos.pass_table(bag, effects, TABLE_DIFFICULTY, MARGINS, budget=ODDS_BUDGET)
            result["rows"] = [
                {"margin": signed(m), "chance": percent(c), "width": f"{float(c * 100):.2f}"}
                for m, c in table.items()
            ]
    except chaos.OddsTooLong:
        result.update(too_long=True, typed=None, rows=[])
    return result


def stats_view(state: ArkhamState) -> dict[str, object]:
    """Each token's share of all tokens revealed so far, beside its share of the bag now."""
    stats_tokens = state["stats"]["tokens"]
    drawn_total = sum(stats_tokens.values())
    resting = resting_bag(state)
    size = sum(resting.values())
    return {
        "bag_size": size,
        "stats": [
            token_view(
                t,
                count=stats_tokens.get(t, 0),
                share=percent(Fraction(stats_tokens.get(t, 0), drawn_total)) if drawn_total else "",
                expected=percent(Fraction(resting.get(t, 0), size)) if size else "",
            )
            for t in chaos.TOKENS
            if stats_tokens.get(t) or resting.get(t)
        ],
        "tests": state["stats"]["tests"],
        "drawn_total": drawn_total,
        "margins_difficulty": TABLE_DIFFICULTY,
    }
