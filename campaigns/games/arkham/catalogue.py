"""What the box already knows, for the group to pick instead of type: each campaign's scenarios
in play order and the investigators with their health and sanity.

Copied from ``shared/data/arkham_scenarios.json`` and ``arkham_investigators.json`` into
``facts/`` (their ``_about`` names the sources): facts only, names in English and, where the
sources have them, in simplified and traditional Chinese (no Japanese names exist there, so a
Japanese reader sees the English). A scenario is known by its id within the campaign; a typed
name that matches one of its names, in any case and language, is that scenario, and any other
typed name is a scenario of its own ("typed:" and the name, spaces and case folded).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, TypedDict

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

FACTS = Path(__file__).with_name("facts")
TYPED = "typed:"


def _load(name: str) -> Any:
    return json.loads((FACTS / name).read_text(encoding="utf-8"))


Names = dict[str, str]  # by language: "en", "zh-Hans", "zh-Hant"


class Step(TypedDict):
    """A scenario, interlude or epilogue of a campaign (facts/scenarios.json)."""

    id: str
    kind: str  # "scenario", "interlude", "epilogue"
    name: Names


class InvestigatorCard(TypedDict):
    """An investigator card (facts/investigators.json)."""

    code: str
    name: Names
    subname: Names
    faction: str  # a key of FACTIONS
    health: int
    sanity: int
    version: str  # "original", "parallel", "story", …
    pack: Names
    pack_code: str


class Choice(TypedDict):
    code: str
    label: str
    health: int
    sanity: int


STEPS: dict[str, list[Step]] = _load("scenarios.json")["campaigns"]
# The investigators offered: the original cards, the parallel versions and the story ones
# (reprints, promotional and hidden versions repeat an original).
OFFERED_VERSIONS = ("original", "parallel", "story")
_INVESTIGATOR_FACTS = _load("investigators.json")
INVESTIGATORS: list[InvestigatorCard] = [
    i for i in _INVESTIGATOR_FACTS["investigators"] if i["version"] in OFFERED_VERSIONS
]
FACTIONS: dict[str, dict[str, str]] = _INVESTIGATOR_FACTS["factions"]
BY_CODE = {i["code"]: i for i in INVESTIGATORS}


def normal(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def language_key() -> str:
    """The data's name key for the reader's language."""
    language = (translation.get_language() or "en").lower()
    if language.startswith("zh-hant") or language in ("zh-tw", "zh-hk", "zh-mo"):
        return "zh-Hant"
    if language.startswith("zh"):
        return "zh-Hans"
    return "en"


def local(names: dict[str, str]) -> str:
    return names.get(language_key()) or names["en"]


# Scenarios


def scenarios(campaign: str) -> list[Step]:
    """The campaign's scenarios in play order (interludes and epilogues are not played)."""
    return [s for s in STEPS.get(campaign, []) if s["kind"] == "scenario"]


def scenario_ref(campaign: str, text: str) -> str:
    """The scenario a name or id means in this campaign: its id, or "typed:<name>"."""
    wanted = normal(text)
    for step in STEPS.get(campaign, []):
        if step["id"] == text or any(normal(n) == wanted for n in step["name"].values()):
            return str(step["id"])
    return TYPED + wanted


def step(campaign: str, ref: str | None) -> Step | None:
    return next((s for s in STEPS.get(campaign, []) if s["id"] == ref), None)


def step_label(campaign: str, found: Step) -> str:
    """A scenario's name in the reader's language; one the campaign plays more than once
    (Edge of the Earth's Fatal Mirage) with its number, so the list tells them apart."""
    same = [s["id"] for s in scenarios(campaign) if s["name"]["en"] == found["name"]["en"]]
    if len(same) < 2 or found["id"] not in same:
        return local(found["name"])
    return pgettext("the nth time a campaign plays a scenario", "%(name)s (%(n)s)") % {
        "name": local(found["name"]),
        "n": same.index(found["id"]) + 1,
    }


def scenario_label(campaign: str, ref: str | None, fallback: str) -> str:
    """A scenario's name in the reader's language, or the name as typed."""
    found = step(campaign, ref)
    return step_label(campaign, found) if found else fallback


def scenario_choices(campaign: str, played: list[str], current: str | None) -> list[dict]:
    """The campaign's scenarios to pick from: the next one first (after the last one played,
    else the first not played), then every one in play order."""
    steps = scenarios(campaign)
    ids = [s["id"] for s in steps]
    upcoming = None
    if played and played[-1] in ids:
        after = ids.index(played[-1]) + 1
        upcoming = next((i for i in ids[after:] if i not in played), None)
    if upcoming is None:
        upcoming = next((i for i in ids if i not in played), None)
    ordered = sorted(steps, key=lambda s: s["id"] != upcoming)
    return [
        {
            "id": s["id"],
            "label": step_label(campaign, s),
            "next": s["id"] == upcoming,
            "played": s["id"] in played,
            "current": s["id"] == current,
        }
        for s in ordered
    ]


# Investigators


def investigator_label(entry: InvestigatorCard) -> str:
    return local(entry["name"])


# A card's English name, as an investigator picked and not renamed keeps it in the campaign's
# state and in what was recorded of them (a test's "who", a change's words in the history),
# with its names in every language any card of it gives (a parallel card may give fewer).
def _names_by_english() -> dict[str, Names]:
    merged: dict[str, Names] = {}
    for card in INVESTIGATORS:
        names = merged.setdefault(card["name"]["en"], {})
        for language, name in card["name"].items():
            names.setdefault(language, name)
    return merged


BY_ENGLISH_NAME = _names_by_english()


def reader_name(name: object) -> str:
    """An investigator's name as it was recorded, on the page: a card's English name in the
    reader's language (the Chinese editions' name, for a Chinese phone), any other name (the
    group's own, one typed) as it is. What was recorded keeps no card code, so a name typed
    exactly as a card's English name reads as that card here, while the table page
    (`names.shown_name`, by the record's code) shows it as typed."""
    text = "" if name is None else str(name)
    names = BY_ENGLISH_NAME.get(text)
    return local(names) if names else text


def identity(name: str, code: str | None = None) -> str:
    """Who an investigator is, whichever version or language names them: the English name of
    the card picked or named, else the typed name folded."""
    found = BY_CODE.get(code or "")
    if found is None:
        wanted = normal(name)
        found = next(
            (i for i in INVESTIGATORS if any(normal(n) == wanted for n in i["name"].values())),
            None,
        )
    return normal(found["name"]["en"]) if found else normal(name)


def _same_card(entry: InvestigatorCard) -> tuple[str, str, str, str]:
    subname = entry.get("subname") or {}
    return (entry["name"]["en"], subname.get("en", ""), entry["faction"], entry["version"])


# Two cards of one investigator with the same class and version (a card reprinted with new
# numbers in a later box, e.g. Joe Diamond in The Circle Undone and in Core Set (2026)) are told
# apart by their box.
_SHARED_CARDS = {key for key, n in Counter(map(_same_card, INVESTIGATORS)).items() if n > 1}


def investigator_choices() -> list[Choice]:
    """The investigators to pick from, by name in the reader's language, each with what tells
    it from another card of the same investigator: its class, "parallel", and its box where
    two cards share both (the card's health and sanity follow in the page)."""
    rows: list[Choice] = []
    for entry in INVESTIGATORS:
        label = investigator_label(entry)
        if entry.get("subname"):
            label = f"{label}: {local(entry['subname'])}"
        parts = [label, local(FACTIONS[entry["faction"]])]
        if entry["version"] == "parallel":
            parts.append(_("parallel"))
        if _same_card(entry) in _SHARED_CARDS:
            # A starter deck's box is named after its investigator: say what it is instead.
            own_box = entry["pack"]["en"] == entry["name"]["en"]
            parts.append(_("starter deck") if own_box else local(entry["pack"]))
        rows.append(
            {
                "code": entry["code"],
                "label": " · ".join(parts),
                "health": entry["health"],
                "sanity": entry["sanity"],
            }
        )
    return sorted(rows, key=lambda r: normal(r["label"]))
