"""The investigators: health and sanity (0 to their maximum; 0 is defeat), clues, train and
ship tickets (two at most together), improvements on each skill (0, +1, +2), conditions (each
once), status, and a new investigator at the end of the Mythos phase for a defeated or devoured
one (rules.md §3a; [001:182-220, 001:360-370, 001:391-397, 001:545-552, 001:151-159])."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Literal, Unpack

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, pgettext
from django_stubs_ext import StrPromise

from campaigns import commands
from campaigns.commands import Command, CommandError, CommandOptions, Payload
from campaigns.fields import TextField
from campaigns.games.eldritch import data
from campaigns.games.eldritch.common import (
    REGIONS,
    game_of,
    investigator,
    named,
    new_investigator,
    number_field,
    settle,
    who,
)
from campaigns.games.eldritch.doom import fallen_status
from campaigns.games.eldritch.setup import parse_typed
from campaigns.games.eldritch.state import EldritchState, Game, Investigator
from campaigns.words import joined

# Keyed by the investigator's own keys, so a choice from a payload reads and writes them typed.
TRACKS: dict[Literal["health", "sanity"], StrPromise] = {
    "health": gettext_lazy("Health"),
    "sanity": gettext_lazy("Sanity"),
}
TICKETS: dict[Literal["train", "ship"], StrPromise] = {
    "train": gettext_lazy("Train ticket"),
    "ship": gettext_lazy("Ship ticket"),
}
FALLEN = ("defeated", "devoured")


def delta_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=-1, max_value=1, widget=forms.HiddenInput)


class InvestigatorForm(forms.Form):
    """A change to one investigator: their id comes first in every such form."""

    investigator = forms.IntegerField(widget=forms.HiddenInput)


class TrackForm(InvestigatorForm):
    track = forms.ChoiceField(choices=list(TRACKS.items()), widget=forms.HiddenInput)
    delta = delta_field()


class CluesForm(InvestigatorForm):
    delta = delta_field()


class TicketForm(InvestigatorForm):
    kind = forms.ChoiceField(choices=list(TICKETS.items()), widget=forms.HiddenInput)
    delta = delta_field()


class ImproveForm(InvestigatorForm):
    skill = forms.ChoiceField(label=gettext_lazy("Skill"), choices=list(data.SKILLS.items()))
    delta = delta_field()


class SkillsForm(InvestigatorForm):
    """The skills printed on a card our data does not know (typed once, from the card)."""

    lore = number_field(data.SKILLS["lore"], *data.SKILL_RANGE)
    influence = number_field(data.SKILLS["influence"], *data.SKILL_RANGE)
    observation = number_field(data.SKILLS["observation"], *data.SKILL_RANGE)
    strength = number_field(data.SKILLS["strength"], *data.SKILL_RANGE)
    will = number_field(data.SKILLS["will"], *data.SKILL_RANGE)


class ConditionForm(InvestigatorForm):
    condition = TextField(label=gettext_lazy("Condition"), max_length=data.NAME_LENGTH)


class UnconditionForm(InvestigatorForm):
    condition = TextField(max_length=data.NAME_LENGTH, widget=forms.HiddenInput)


class StatusForm(InvestigatorForm):
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=list(data.STATUSES.items()))


class ReplaceForm(InvestigatorForm):
    chosen = forms.ChoiceField(
        label=gettext_lazy("New investigator"),
        required=False,
        choices=[("", "—")] + [(n, n) for n in data.INVESTIGATORS],
    )
    typed = TextField(
        label=gettext_lazy("Or type one"),
        max_length=80,
        required=False,
        help_text=gettext_lazy("name, health, sanity"),
    )


def fall(game: Game, person: Investigator, status: str) -> None:
    """Defeated or devoured: what it does to doom and the awakening is doom.py's (doom advances
    by one; after awakening the player is eliminated); the investigator leaves play, and the
    lead passes to the next investigator still playing [001:182-220, 001:69]."""
    person["status"] = fallen_status(game, status)
    if person["name"] not in game["fallen"]:
        game["fallen"].append(person["name"])
    person["conditions"] = []
    person["improvements"] = {skill: 0 for skill in person["improvements"]}
    if game["lead"] == person["id"]:
        playing = [p["id"] for p in game["investigators"] if p["status"] in ("normal", "delayed")]
        game["lead"] = playing[0] if playing else None
    settle(game)


def apply_track(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "delta")
    person = investigator(game, payload)
    track = commands.need_choice(payload, "track", TRACKS)
    delta = commands.need_int(payload, "delta", -1, 1)
    if person["status"] in (*FALLEN, "eliminated"):
        raise CommandError(_("%(name)s is out of play.") % {"name": person["name"]}, "delta")
    value = person[track] + delta
    top = person["max_health"] if track == "health" else person["max_sanity"]
    if value > top:
        raise CommandError(
            _("%(name)s's %(track)s is at its maximum (%(max)d).")
            % {"name": person["name"], "track": TRACKS[track], "max": top},
            "delta",
        )
    if value < 0:
        raise CommandError(_("It is already 0."), "delta")
    person[track] = value
    if value == 0:
        fall(game, person, "defeated")


def apply_clues(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "delta"), payload)
    value = person["clues"] + commands.need_int(payload, "delta", -1, 1)
    if not 0 <= value <= data.MAX_CLUES:
        raise CommandError(_("%(name)s has no clue to spend.") % {"name": person["name"]}, "delta")
    person["clues"] = value


def apply_ticket(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "delta"), payload)
    kind = commands.need_choice(payload, "kind", TICKETS)
    value = person[kind] + commands.need_int(payload, "delta", -1, 1)
    if value < 0:
        raise CommandError(_("No such ticket to discard."), "delta")
    if value + person["ship" if kind == "train" else "train"] > data.MAX_TICKETS:
        raise CommandError(
            _("At most two travel tickets together: discard one to gain a new one."), "delta"
        )
    person[kind] = value


def apply_improve(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "skill"), payload)
    skill = commands.need_choice(payload, "skill", data.SKILLS)
    value = person["improvements"][skill] + commands.need_int(payload, "delta", -1, 1)
    if not 0 <= value <= data.MAX_IMPROVEMENT:
        raise CommandError(_("A skill is improved at most twice (+2), and not below 0."), "skill")
    person["improvements"][skill] = value


def apply_skills(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "lore"), payload)
    if person["skills"] is not None:
        # Said above the investigator: the form is not shown for a card whose skills are known.
        raise CommandError(
            _("%(name)s's skills are known: they are not typed.") % {"name": person["name"]}
        )
    person["skills"] = {
        key: commands.need_int(payload, key, *data.SKILL_RANGE) for key in data.SKILLS
    }


def describe_skills(p: Payload) -> str:
    skills = [
        pgettext("a skill and its value", "%(skill)s %(n)s") % {"skill": label, "n": p.get(key)}
        for key, label in data.SKILLS.items()
    ]
    return _("%(who)s's skills, as printed: %(skills)s") % {"who": who(p), "skills": joined(skills)}


def apply_condition(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "condition"), payload)
    condition = commands.need_str(payload, "condition", data.NAME_LENGTH).strip()
    if condition.casefold() in (c.casefold() for c in person["conditions"]):
        raise CommandError(
            _("%(name)s already has %(condition)s: no condition twice.")
            % {"name": person["name"], "condition": condition},
            "condition",
        )
    person["conditions"].append(condition)


def apply_uncondition(state: EldritchState, payload: Payload) -> None:
    person = investigator(game_of(state, "condition"), payload)
    condition = commands.need_str(payload, "condition", data.NAME_LENGTH)
    if condition not in person["conditions"]:
        raise CommandError(_("That condition is not there."), "condition")
    person["conditions"].remove(condition)


def apply_status(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "status")
    person = investigator(game, payload)
    status = commands.need_choice(payload, "status", data.STATUSES)
    if status == person["status"]:
        return
    if person["status"] == "eliminated" or (person["status"] in FALLEN and status != "eliminated"):
        raise CommandError(
            _("%(name)s is out of play: a new investigator comes at the end of the Mythos phase.")
            % {"name": person["name"]},
            "status",
        )
    if status in FALLEN:
        fall(game, person, status)
        return
    person["status"] = status
    settle(game)


def in_play(game: Game) -> set[str]:
    return {p["name"] for p in game["investigators"] if p["status"] not in (*FALLEN, "eliminated")}


def available(game: Game) -> list[str]:
    """Investigators from our data that may still be chosen this game."""
    taken = in_play(game) | set(game["fallen"])
    return [name for name in data.INVESTIGATORS if name not in taken]


def said_name(person: object) -> object:
    """The name in a payload's investigator, for the history."""
    return person.get("name", "?") if isinstance(person, dict) else "?"


def resolve_replace(state: EldritchState, data_: Payload, rng: random.Random) -> Payload:
    person: dict[str, object] = {}
    chosen, typed = data_.get("chosen"), data_.get("typed")
    if chosen:
        name = commands.need_choice(data_, "chosen", data.INVESTIGATORS)
        facts = data.INVESTIGATORS[name]
        person = {k: facts[k] for k in ("health", "sanity", "skills")}
        person["name"] = name
    elif typed:
        person = parse_typed(commands.need_str(data_, "typed", 80))[0]
    else:
        raise CommandError(_("Choose the new investigator, or type one."), "chosen")
    return {"investigator": data_["investigator"], "new": person, **named(state, data_)}


def apply_replace(state: EldritchState, payload: Payload) -> None:
    game = game_of(state, "chosen")
    old = investigator(game, payload)
    if old["status"] not in FALLEN:
        raise CommandError(_("Only a defeated or devoured investigator is replaced."), "chosen")
    if game["phase"] != "mythos":
        raise CommandError(_("A new investigator comes at the end of the Mythos phase."), "chosen")
    new = payload.get("new")
    if not isinstance(new, dict):
        raise CommandError(_("Choose the new investigator, or type one."), "chosen")
    name = commands.need_str(new, "name", data.NAME_LENGTH).strip()
    if name in game["fallen"] or name in in_play(game):
        raise CommandError(
            _("%(name)s was defeated or devoured this game, or is playing.") % {"name": name},
            "chosen",
        )
    health, sanity = (
        commands.need_int(new, "health", 1, 20),
        commands.need_int(new, "sanity", 1, 20),
    )
    number = max(p["id"] for p in game["investigators"]) + 1
    fresh = new_investigator(number, name, health, sanity, new.get("skills"))
    game["investigators"][game["investigators"].index(old)] = fresh
    if game["lead"] is None:
        game["lead"] = fresh["id"]


def investigator_view(game: Game, person: Investigator) -> dict[str, object]:
    skills = [
        {
            "key": key,
            "label": label,
            "base": person["skills"][key] if person["skills"] else None,
            "improved": person["improvements"][key],
        }
        for key, label in data.SKILLS.items()
    ]
    return {
        **person,
        "skills_list": skills,
        "status_label": data.STATUSES[person["status"]],
        "lead": game["lead"] == person["id"],
        "out": person["status"] in (*FALLEN, "eliminated"),
        "to_replace": person["status"] in FALLEN,
        "region": f"eh-inv-{person['id']}",
        "track_rows": [
            ("health", person["health"], person["max_health"]),
            ("sanity", person["sanity"], person["max_sanity"]),
        ],
        "count_rows": [
            ("clues", person["clues"]),
            ("train", person["train"]),
            ("ship", person["ship"]),
        ],
    }


def signed(p: Payload) -> str:
    return f"{p.get('delta', 0):+d}" if isinstance(p.get("delta"), int) else "?"


def _named(state: EldritchState, data: Payload, rng: random.Random) -> Payload:
    return {**data, **named(state, data)}


def _change(
    name: str,
    form: type[forms.Form],
    apply: Callable[[EldritchState, Payload], None],
    describe: Callable[[Payload], str],
    resolve: Callable[[EldritchState, Payload, random.Random], Payload] = _named,
    **more: Unpack[CommandOptions[EldritchState]],
) -> Command[EldritchState]:
    """A change to one investigator; the payload keeps the investigator's name for the history."""
    options: CommandOptions[EldritchState] = {"regions": REGIONS, **more}
    return Command(name, form, apply, describe, resolve, **options)


def _describe[K: str](
    msgid: str, key: str, names: Mapping[K, StrPromise] | None = None
) -> Callable[[Payload], str]:
    """The history line: `msgid` (gettext_noop'd) with who, `key` (its label from `names`, or
    the payload's text as is) and the signed delta."""

    def describe(p: Payload) -> str:
        value = p.get(key) if names is None else commands.said_choice(names, p.get(key))
        return _(msgid) % {"who": who(p), key: value, "delta": signed(p)}

    return describe


COMMANDS = (
    _change(
        "eh.track",
        TrackForm,
        apply_track,
        _describe(gettext_noop("%(who)s: %(track)s %(delta)s"), "track", TRACKS),
    ),
    _change(
        "eh.clues",
        CluesForm,
        apply_clues,
        lambda p: _("%(who)s: clues %(delta)s") % {"who": who(p), "delta": signed(p)},
    ),
    _change(
        "eh.ticket",
        TicketForm,
        apply_ticket,
        _describe(gettext_noop("%(who)s: %(kind)s %(delta)s"), "kind", TICKETS),
    ),
    _change(
        "eh.improve",
        ImproveForm,
        apply_improve,
        _describe(gettext_noop("%(who)s: %(skill)s improvement %(delta)s"), "skill", data.SKILLS),
    ),
    _change("eh.skills", SkillsForm, apply_skills, describe_skills),
    _change(
        "eh.condition",
        ConditionForm,
        apply_condition,
        _describe(gettext_noop("%(who)s gained %(condition)s"), "condition"),
    ),
    _change(
        "eh.uncondition",
        UnconditionForm,
        apply_uncondition,
        _describe(gettext_noop("%(who)s lost %(condition)s"), "condition"),
    ),
    _change(
        "eh.status",
        StatusForm,
        apply_status,
        _describe(gettext_noop("%(who)s is now %(status)s"), "status", data.STATUSES),
        stale_check=True,
    ),
    _change(
        "eh.replace",
        ReplaceForm,
        apply_replace,
        lambda p: _("%(new)s replaces %(who)s") % {"who": who(p), "new": said_name(p.get("new"))},
        resolve=resolve_replace,
        stale_check=True,
    ),
)
