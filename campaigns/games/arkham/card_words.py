"""The scenario card's lines in our own short words (never the card's printed text): what each
X counts, by the facts' neutral key, what a condition switches to, what happens afterwards."""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_stubs_ext import StrOrPromise

from campaigns.games.arkham.state import CardLine
from campaigns.words import joined

# What an X counts, by the facts' neutral key, in our own words.
X_LABELS: dict[str, StrOrPromise] = {
    "trait_enemies_at_location": gettext_lazy("enemies of the card's trait at your location"),
    "doom_on_cultist_enemies": gettext_lazy("doom on Cultist enemies"),
    "doom_in_play": gettext_lazy("doom in play"),
    "trait_enemies_in_play": gettext_lazy("enemies of the card's trait in play"),
    "act_number": gettext_lazy("the current act's number"),
    "elite_enemies_in_victory_and_under_act": gettext_lazy(
        "Elite enemies in the victory display and under the act"
    ),
    "clues_controlled": gettext_lazy("clues you control"),
    "trait_treacheries_in_play": gettext_lazy("treacheries of the card's trait in play"),
    "discarded_cards_cost": gettext_lazy("cost of the discarded card"),
    "agenda_number": gettext_lazy("the current agenda's number"),
    "locations_without_cards_beneath": gettext_lazy("locations with no card beneath"),
    "named_enemies_in_play": gettext_lazy("copies of the named enemy in play"),
    "trait_locations_in_play": gettext_lazy("locations of the card's trait in play"),
    "shroud": gettext_lazy("your location's shroud"),
    "horror_on_investigator": gettext_lazy("horror on you"),
    "doom_on_enemies": gettext_lazy("doom on enemies"),
    "distance_from_start": gettext_lazy("locations from the starting location"),
    "doom_on_agenda": gettext_lazy("doom on the agenda"),
    "vengeance_in_victory": gettext_lazy("vengeance points in the victory display"),
    "locations_in_play": gettext_lazy("locations in play"),
    "cards_in_exploration_deck": gettext_lazy("cards in the exploration deck"),
    "locations_with_doom": gettext_lazy("locations with doom"),
    "doom_on_locations": gettext_lazy("doom on locations"),
    "depth_level": gettext_lazy("the depth level"),
    "copies_in_victory": gettext_lazy("copies in the victory display"),
    "doom_and_breaches_on_location": gettext_lazy("doom and breaches on your location"),
    "doom_on_boss": gettext_lazy("doom on the boss enemy"),
    "cards_in_hand": gettext_lazy("cards in your hand"),
    "trait_locations_revealed": gettext_lazy("revealed locations of the card's trait"),
    "signs_uncovered": gettext_lazy("signs uncovered"),
    "alarm_level": gettext_lazy("your alarm level"),
    "act_plus_agenda_number": gettext_lazy("the act's number plus the agenda's"),
    "infested_locations": gettext_lazy("infested locations"),
    "damage_on_scenario_card": gettext_lazy("damage on the scenario card"),
    "locations_east_in_row": gettext_lazy("locations east of you in your row"),
    "barriers_around_location": gettext_lazy("barriers around your location"),
    "keys_controlled_by_group": gettext_lazy("keys the investigators control"),
    "keys_on_scenario_card": gettext_lazy("keys on the scenario card"),
    "shelter_value": gettext_lazy("your location's shelter value"),
    "location_level": gettext_lazy("your location's level"),
    "keys_controlled": gettext_lazy("keys you control"),
    "story_cards_in_victory": gettext_lazy("story cards in the victory display"),
    "agenda_number_plus_story_cards_in_victory": gettext_lazy(
        "the agenda's number plus story cards in the victory display"
    ),
    "hollows_owned": gettext_lazy("hollows you own"),
    "enemies_in_shadows": gettext_lazy("enemies in the shadows"),
    "markers_on_scenario_card": gettext_lazy("markers on the scenario card"),
    "civilians_slain_per_investigator": gettext_lazy("civilians slain per investigator"),
    "clues_on_cultist_enemies": gettext_lazy("clues on Cultist enemies"),
    "charges_on_enemy": gettext_lazy("charges on the enemy"),
    "day_number": gettext_lazy("the day's number"),
    "location_column": gettext_lazy("your location's column"),
    "location_floor": gettext_lazy("your location's floor"),
    "trait_enemies_in_play_and_victory": gettext_lazy(
        "enemies of the card's trait in play and in the victory display"
    ),
    "darkness_level": gettext_lazy("the darkness level"),
    "revealed_locations": gettext_lazy("revealed locations"),
    "doom_on_enemies_and_assets": gettext_lazy("doom on enemies and assets"),
    "activated_locations": gettext_lazy("activated locations"),
    "glyphs_in_victory": gettext_lazy("glyphs in the victory display"),
    "storm_intensity": gettext_lazy("the storm's intensity"),
    "open_sky_adjacent": gettext_lazy("open-sky locations next to you"),
    "disturbance": gettext_lazy("the disturbance"),
    "boss_rage": gettext_lazy("the boss's rage"),
}
# When an after-effect happens, and what it is (a number where the facts give an amount).
WHEN = {
    "on_reveal": gettext_lazy("when revealed"),
    "on_reveal_if": gettext_lazy("when revealed, under a condition"),
    "on_fail": gettext_lazy("if you fail"),
    "on_fail_per_point": gettext_lazy("if you fail, for each point you fail by"),
    "on_fail_or_narrow_success": gettext_lazy("if you fail or barely succeed"),
    "on_success": gettext_lazy("if you succeed"),
}
AMOUNTS = {"damage", "horror", "doom", "curse_token_added"}
KINDS = {
    "other": gettext_lazy("another effect"),
    "clue_or_key_to_location": gettext_lazy("a clue or key goes to the location"),
    "discard": gettext_lazy("discard"),
    "resource_loss": gettext_lazy("lose resources"),
    "enemy_attack_or_engage": gettext_lazy("an enemy attacks or engages"),
    "heal": gettext_lazy("an enemy heals"),
    "encounter_card": gettext_lazy("an encounter card"),
    "token_leaves_bag": gettext_lazy("the token leaves the bag"),
    "action_loss": gettext_lazy("lose an action"),
    "shroud_increase": gettext_lazy("the shroud goes up"),
    "extra_clue": gettext_lazy("an extra clue"),
    "draw_card": gettext_lazy("draw a card"),
    "damage_or_horror": gettext_lazy("damage or horror"),
}


def amount_words(kind: str, n: int) -> str:
    if kind == "damage":
        return ngettext("%(n)d damage", "%(n)d damage", n) % {"n": n}
    if kind == "horror":
        return ngettext("%(n)d horror", "%(n)d horror", n) % {"n": n}
    if kind == "doom":
        return ngettext("%(n)d doom", "%(n)d doom", n) % {"n": n}
    return ngettext("%(n)d curse token added", "%(n)d curse tokens added", n) % {"n": n}


def x_key(line: CardLine) -> str:
    return str(line.get("x_from", ""))


def alternatives(line: CardLine) -> int:
    """How many alternatives a line has (0: none; graded lines have one per grade)."""
    if not line.get("conditional"):
        return 0
    return len(line.get("alt_modifiers") or [None])


# Our own short words for a line


def x_words(line: CardLine) -> str:
    label = X_LABELS.get(x_key(line), x_key(line))
    parts = [_("X = %(what)s") % {"what": label}]
    if line.get("x_aggregate") == "max":
        parts.append(_("the most on one card"))
    multiplier = line.get("x_multiplier", 1)
    if multiplier == 0.5:
        parts.append(
            _("halved, rounded up") if line.get("x_round") == "up" else _("halved, rounded down")
        )
    elif multiplier == 2:
        parts.append(_("doubled"))
    if line.get("x_offset"):
        parts.append(_("plus %(n)d") % {"n": line["x_offset"]})
    if "x_min" in line:
        parts.append(_("at least %(n)d") % {"n": line["x_min"]})
    if "x_max" in line:
        parts.append(_("at most %(n)d") % {"n": line["x_max"]})
    return joined(parts)


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−") if value else "0"


def alt_words(line: CardLine, alt: int = 1) -> str:
    """What the alternative ``alt`` does, in words."""
    if line.get("alt_auto_fail"):
        return _("automatic failure")
    parts = []
    grades = line.get("alt_modifiers")
    if grades:
        parts.append(signed(int(grades[min(alt, len(grades)) - 1])))
    elif "alt_modifier" in line:
        parts.append(signed(int(line["alt_modifier"])))
    if line.get("alt_auto_success"):
        parts.append(_("automatic success"))
    if line.get("alt_reveal_another"):
        parts.append(_("reveal another"))
    if line.get("alt_token") == "frost":
        parts.append(
            _("also counts as a frost")
            if line.get("alt_token_in_addition")
            else _("counts as a frost")
        )
    return joined(parts)


class LineWords(TypedDict):
    """A card's line as the pages say it (`line_words`)."""

    does: str
    notes: list[str]
    alts: list[str]
    by_choice: bool
    after: list[str]


def line_words(line: CardLine) -> LineWords:
    """A card's line in our own short words: what it does, under a condition, and afterwards."""
    does = ["−X" if line["modifier"] == "X" else signed(int(line["modifier"]))]
    if line.get("reveal_another"):
        does.append(_("reveal another"))
    if line.get("auto_fail"):
        does = [_("automatic failure")]
    notes = []
    if line["modifier"] == "X":
        notes.append(x_words(line))
    if line.get("cancels_committed_cards"):
        notes.append(_("cancels the committed cards' icons: count your skill without them"))
    alts = []
    if alternatives(line):
        grades = line.get("alt_modifiers") or [0]  # (one alternative without grades)
        for n in range(1, len(grades) + 1):
            alts.append(alt_words(line, n))
    after = []
    for key, n in sorted(line.get("after_effects", {}).items()):
        when = next((w for w in sorted(WHEN, key=len, reverse=True) if key.startswith(w + "_")), "")
        kind = key[len(when) + 1 :]
        what = amount_words(kind, int(n)) if kind in AMOUNTS else str(KINDS.get(kind, kind))
        after.append(_("%(when)s: %(what)s") % {"when": WHEN.get(when, when), "what": what})
    return {
        "does": joined(does),
        "notes": notes,
        "alts": alts,
        "by_choice": bool(line.get("alt_by_choice")),
        "after": after,
    }
