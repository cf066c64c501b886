"""Dice for a test, rolled on the server and shown on every phone: successes on 5 or 6, 4–6
when blessed, only 6 when cursed; a clue spent rerolls one failed die; beside the roll, the
exact chance of at least k successes (rules.md §3b; the die faces are [EXTERNAL – verify])."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import TypedDict

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_stubs_ext import StrOrPromise

from campaigns import commands
from campaigns.commands import Command, CommandError, Payload
from campaigns.engines import dice
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import REGIONS, game_of, number_field
from campaigns.games.eldritch.state import EldritchState, Game, Roll

BONUS = {
    "normal": (5, gettext_lazy("Normal (5–6)")),
    "blessed": (4, gettext_lazy("Blessed (4–6)")),
    "cursed": (6, gettext_lazy("Cursed (6 only)")),
}


class RollForm(forms.Form):
    dice = number_field(gettext_lazy("Dice"), 1, data.MAX_DICE, initial=3)
    bonus = forms.ChoiceField(
        label=gettext_lazy("Success on"),
        choices=[(k, label) for k, (_n, label) in BONUS.items()],
        initial="normal",
    )
    # The game's investigators are drawn as the select's options by the template.
    investigator = forms.IntegerField(label=gettext_lazy("Investigator"), required=False)


class RerollForm(forms.Form):
    roll = forms.IntegerField(widget=forms.HiddenInput)


def resolve_roll(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    game = game_of(state, "dice")
    who = commands.need_opt_int(data_, "investigator")
    name = next((p["name"] for p in game["investigators"] if p["id"] == who), "")
    if who is not None and not name:
        raise CommandError(_("That investigator is not in this game."), "investigator")
    return {
        "dice": commands.need_int(data_, "dice", 1, data.MAX_DICE),
        "success_on": BONUS[commands.need_choice(data_, "bonus", BONUS)][0],
        "investigator": who,
        "who": name,
        "faces": dice.roll(commands.need_int(data_, "dice", 1, data.MAX_DICE), rng),
    }


def apply_roll(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "dice")
    count = commands.need_int(payload, "dice", 1, data.MAX_DICE)
    faces = payload.get("faces")
    if not isinstance(faces, list) or len(faces) != count:
        raise CommandError(_("The roll does not fit."), "dice")
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
            raise CommandError(_("The roll does not fit."), "dice")
    who = commands.need_opt_int(payload, "investigator")
    if who is not None and not any(p["id"] == who for p in game["investigators"]):
        raise CommandError(_("That investigator is not in this game."), "investigator")
    game["rolls"].append(
        {
            "id": commands.next_id(state),
            "investigator": who,
            "who": str(payload.get("who") or ""),
            "success_on": commands.need_int(payload, "success_on", 4, 6),
            "faces": list(faces),
            "rerolls": [],
        }
    )


def describe_roll(payload: Payload) -> str:
    faces = payload.get("faces")
    faces = faces if isinstance(faces, list) else []
    on = payload.get("success_on")
    on = on if isinstance(on, int) else 5
    hits = sum(1 for f in faces if isinstance(f, int) and f >= on)
    count = payload.get("dice")
    count = count if isinstance(count, int) and not isinstance(count, bool) else len(faces)
    return _("%(rolled)s: %(faces)s, %(successes)s") % {
        "rolled": ngettext("Rolled %(n)d die", "Rolled %(n)d dice", count) % {"n": count},
        "faces": " ".join(str(f) for f in faces),
        "successes": ngettext("%(n)s success", "%(n)s successes", hits) % {"n": hits},
    }


def the_roll(game: Game, payload: Payload) -> Roll:
    ident = payload.get("roll")
    for roll in game["rolls"]:
        if roll["id"] == ident:
            return roll
    raise CommandError(_("That roll is not in this game."), "roll")


def resolve_reroll(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    roll = the_roll(game_of(state, "roll"), data_)
    try:
        die, after = dice.reroll_one(roll["faces"], roll["success_on"], rng)
    except dice.DiceError:
        raise CommandError(_("Every die already succeeds."), "roll") from None
    return {"roll": roll["id"], "die": die, "after": after}


def apply_reroll(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "roll")
    roll = the_roll(game, payload)
    die = commands.need_int(payload, "die", 0, len(roll["faces"]) - 1)
    after = commands.need_int(payload, "after", 1, 6)
    if roll["faces"][die] >= roll["success_on"]:
        raise CommandError(_("Only a failed die is rerolled."), "roll")
    person = next((p for p in game["investigators"] if p["id"] == roll["investigator"]), None)
    if person is not None:
        if person["clues"] <= 0:
            raise CommandError(
                _("%(name)s has no clue to spend.") % {"name": person["name"]}, "roll"
            )
        person["clues"] -= 1
    roll["rerolls"].append({"die": die, "before": roll["faces"][die], "after": after})
    roll["faces"][die] = after


def describe_reroll(payload: Payload) -> str:
    return _("A clue spent: one die rerolled to %(after)s") % {"after": payload.get("after")}


def percent(chance: Fraction) -> str:
    if 0 < chance < Fraction(1, 1000):
        return "< 0.1 %"
    return f"{float(chance) * 100:.1f} %"


def odds_table(
    count: int, success_on: int, clues: int, have: int | None = None
) -> list[dict[str, object]]:
    """The chance of at least k successes for k from 1 to `count`, without and with the clues
    spent on rerolls: before rolling, or (`have`: the successes a roll shows) from the dice on
    the table, whose successes are kept."""
    clues = max(0, min(clues, data.MAX_DICE))

    def chance(k: int, rerolls: int) -> Fraction:
        if have is None:
            return dice.at_least(count, k, success_on, rerolls)
        return dice.still_at_least(count, have, k, success_on, rerolls)

    return [
        {"k": k, "plain": percent(chance(k, 0)), "with_clues": percent(chance(k, clues))}
        for k in range(1, count + 1)
    ]


class ShownRoll(Roll):
    """The last roll as the page shows it."""

    successes: int
    dice: list[dict[str, object]]
    can_reroll: bool
    clues: int | None
    odds: list[dict[str, object]]


class RollsView(TypedDict):
    last_roll: ShownRoll | None
    asked: dict[str, object] | None  # the odds asked for: dice, clues, rows
    bonus_choices: Mapping[str, tuple[int, StrOrPromise]]
    query: dict[str, str]  # what the odds form sent, to show it again
    asked_problem: str  # why no odds show for what it sent ("" when they do, or none asked)


def rolls_view(game: Game, query: Mapping[str, str]) -> RollsView:
    last = game["rolls"][-1] if game["rolls"] else None
    shown: ShownRoll | None = None
    if last is not None:
        person = next((p for p in game["investigators"] if p["id"] == last["investigator"]), None)
        clues = person["clues"] if person else 0
        successes = dice.count(last["faces"], last["success_on"])
        shown = {
            **last,
            "successes": successes,
            "dice": [{"face": f, "hit": f >= last["success_on"]} for f in last["faces"]],
            "can_reroll": any(f < last["success_on"] for f in last["faces"])
            and (person is None or clues > 0),
            "clues": clues if person else None,
            "odds": odds_table(len(last["faces"]), last["success_on"], clues, successes),
        }
    # One value per name (a query string may repeat one: the last counts, as Django reads it).
    sent = {name: str(query.get(name) or "") for name in ("dice", "clues", "bonus")}
    asked: dict[str, object] | None = None
    problem = ""
    if sent["dice"]:
        try:
            count, clues = int(sent["dice"]), int(sent["clues"] or 0)
            on = BONUS[sent["bonus"] or "normal"][0]
        except (ValueError, KeyError):
            count, clues, on = 0, 0, 0
        if 1 <= count <= data.MAX_DICE and 0 <= clues <= data.MAX_DICE and on:
            asked = {"dice": count, "clues": clues, "rows": odds_table(count, on, clues)}
        else:
            problem = _("Choose 1 to %(most)d dice and 0 to %(most)d clues.") % {
                "most": data.MAX_DICE
            }
    return {
        "last_roll": shown,
        "asked": asked,
        "bonus_choices": BONUS,
        "query": sent,
        "asked_problem": problem,
    }


COMMANDS = (
    Command(
        "eh.roll",
        RollForm,
        apply_roll,
        describe_roll,
        resolve_roll,
        stale_check=True,
        random_outcome=True,
        regions=REGIONS,
        needs_connection=True,
    ),
    Command(
        "eh.reroll",
        RerollForm,
        apply_reroll,
        describe_reroll,
        resolve_reroll,
        stale_check=True,
        random_outcome=True,
        regions=REGIONS,
        needs_connection=True,
    ),
)
