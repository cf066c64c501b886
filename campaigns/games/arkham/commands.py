"""Arkham Horror: The Card Game: how each change folds into the campaign's state.

The state (a plain JSON dict, rebuilt by replaying the events):

- ``campaign``, ``difficulty``: what was chosen at creation.
- ``bag``: token → count of the chaos bag, counting the tokens revealed in the open test (they
  go back at the end of the test); ``sealed``: token → count of tokens sealed on cards.
- ``investigators``: one dict per investigator, killed and insane ones kept on the record.
- ``active``: the id of the investigator the bag page tests for (elder sign, odds), or None.
- ``scenario``: the scenario being played, or None; ``effects``: the scenario token effects
  the group entered, keyed by "<difficulty band>|<scenario name>".
- ``draws``: the last 20 tests, oldest first; the last one may be ``open`` (the test going on).
  ``stats``: how many tests and how many of each token were revealed, all time.
- ``trackers``: the campaign log (Campaign Notes, the campaign's named sections, custom
  sections), as the shared trackers; ``log_ids``: the ids of the sections the campaign came with.
- ``scenarios``: the results recorded after each scenario, in order.
- ``round``: the round helper (round number, framework step, doom, threshold, agenda).

Every ``apply`` checks its payload against the state, since an imported file goes through it.
No order of the bag is ever stored: a draw is decided in ``resolve``, at draw time.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaigns import trackers
from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    State,
    need_bool,
    need_choice,
    need_int,
    need_str,
    next_id,
)
from campaigns.engines import chaos
from campaigns.games.arkham import data, forms

MAX_DRAWS = 20
MAX_INVESTIGATORS = 40
MAX_ITEMS = 200
NAME = 80
SKILL_LIMIT = 10  # a token modifier or elder sign bonus, either way


# Finding things


def investigator(state: State, payload: Payload, key: str = "investigator") -> dict[str, Any]:
    wanted = need_int(payload, key)
    for found in state.get("investigators", []):
        if found["id"] == wanted:
            return found
    raise CommandError(_("That investigator is not in this campaign."), key)


def name_of(state: State, investigator_id: Any) -> str:
    for found in state.get("investigators", []):
        if found["id"] == investigator_id:
            return found["name"]
    return ""


def open_test(state: State) -> dict[str, Any] | None:
    draws = state.get("draws", [])
    return draws[-1] if draws and draws[-1].get("open") else None


def revealed_counts(state: State) -> dict[str, int]:
    counts: dict[str, int] = {}
    test = open_test(state)
    for entry in test["tokens"] if test else []:
        counts[entry["token"]] = counts.get(entry["token"], 0) + 1
    return counts


def drawable(state: State) -> dict[str, int]:
    """The tokens a hand could pull out now: the bag less the ones revealed in the open test."""
    out = revealed_counts(state)
    return {t: n - out.get(t, 0) for t, n in state["bag"].items() if n - out.get(t, 0) > 0}


def resting_bag(state: State) -> dict[str, int]:
    """The bag as the next test will find it (bless and curse revealed now go to the pool)."""
    out = revealed_counts(state)
    bag = dict(state["bag"])
    for token in data.POOL_TOKENS:
        bag[token] = bag.get(token, 0) - out.get(token, 0)
    return {t: n for t, n in bag.items() if n > 0}


def scenario_key(state: State) -> str:
    return f"{data.BANDS[state['difficulty']]}|{state.get('scenario') or ''}"


def effects_for(state: State, investigator_id: Any) -> dict[str, dict[str, Any]]:
    """The symbol effects of a test: the scenario's four, and the investigator's elder sign."""
    effects = {k: dict(v) for k, v in state.get("effects", {}).get(scenario_key(state), {}).items()}
    for found in state.get("investigators", []):
        if found["id"] == investigator_id:
            effects["elder_sign"] = dict(found["elder"])
    return effects


# The chaos bag


def token_rule(token: str, effects: dict[str, Any]) -> dict[str, Any]:
    """What one revealed token does: modifier (None = automatic failure), again, succeed."""
    modifier = chaos.token_modifier(token, effects)
    effect = effects.get(token, {}) if token in chaos.SYMBOLS else {}
    return {
        "token": token,
        "modifier": modifier,
        "again": chaos.reveals_another(token, effects),
        "succeed": bool(effect.get("auto_succeed", False)) and modifier is not None,
    }


def settle(test: dict[str, Any]) -> None:
    """Work out the test's outcome from its tokens, as the engine's rules have it."""
    total, failed, succeeded, frosts = 0, False, False, 0
    for entry in test["tokens"]:
        if entry["modifier"] is None:
            failed = True
        else:
            total += entry["modifier"]
        if entry["token"] == "frost":
            frosts += 1
            if frosts >= 2:
                failed = True
                entry["second_frost"] = True
        succeeded = succeeded or entry["succeed"]
    test["total"] = total
    test["auto_fail"] = failed
    test["auto_succeed"] = succeeded and not failed


def wants_another(state: State, test: dict[str, Any]) -> bool:
    """Whether the rules make the test reveal another token now (and one is left to reveal)."""
    if not test["tokens"] or test["auto_fail"]:
        return False
    return test["tokens"][-1]["again"] and bool(drawable(state))


def close_test(state: State) -> None:
    test = open_test(state)
    if test is None:
        return
    for entry in test["tokens"]:
        if entry["token"] in data.POOL_TOKENS:
            state["bag"][entry["token"]] -= 1
            if not state["bag"][entry["token"]]:
                del state["bag"][entry["token"]]
    test["open"] = False


def reveal(
    state: State, payload: Payload, new_test: bool, automatic: bool, complete: bool = True
) -> None:
    """Reveal the payload's tokens into a new or the open test. `automatic` (a server draw) also
    checks that the chain follows the rules: every token but the last reveals another, and the
    last one does not (unless `complete` is off, while the chain is being drawn)."""
    tokens = payload.get("tokens")
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= 60:
        raise CommandError(_("A draw needs at least one token."), "tokens")
    if new_test:
        close_test(state)
        who = payload.get("investigator")
        if who is not None:
            investigator(state, payload)
        test = {
            "id": next_id(state),
            "investigator": who,
            "who": name_of(state, who),
            "scenario": state.get("scenario") or "",
            "tokens": [],
            "open": True,
            "physical": not automatic,
        }
        settle(test)
        state.setdefault("draws", []).append(test)
        del state["draws"][:-MAX_DRAWS]
        state["stats"]["tests"] += 1
    else:
        test = open_test(state)
        if test is None:
            raise CommandError(_("No test is going on: draw to start one."), "tokens")
        if not automatic:
            test["physical"] = True
    effects = effects_for(state, test["investigator"])
    for index, token in enumerate(tokens):
        if token not in chaos.TOKENS:
            raise CommandError(
                _("There is no chaos token called “%(token)s”.") % {"token": token}, "token"
            )
        if drawable(state).get(token, 0) < 1:
            raise CommandError(
                _("There is no %(token)s token left in the bag to reveal.")
                % {"token": data.TOKEN_LABELS[token]},
                "token",
            )
        entry = token_rule(token, effects)
        entry["auto"] = automatic and index > 0  # drawn because the one before said so
        test["tokens"].append(entry)
        settle(test)
        state["stats"]["tokens"][token] = state["stats"]["tokens"].get(token, 0) + 1
        if automatic and index < len(tokens) - 1 and not wants_another(state, test):
            raise CommandError(_("That draw does not follow the chaos bag's rules."), "tokens")
    if automatic and complete and wants_another(state, test):
        raise CommandError(_("That draw stops before the chaos bag's rules say."), "tokens")


def draw_chain(state: State, investigator_id: Any, new_test: bool, rng: random.Random) -> list:
    """Draw at random, then keep drawing while the rules say reveal another (bless, curse, frost,
    a symbol marked so), on a scratch copy of the state. Returns the tokens drawn."""
    scratch = copy.deepcopy(state)
    if new_test:
        close_test(scratch)
        if not drawable(scratch):
            raise CommandError(_("The bag is empty: put tokens in it before drawing."), "tokens")
    elif not drawable(scratch):
        raise CommandError(
            _("Every token in the bag is already out: press Done to end the test."), "tokens"
        )
    drawn: list[str] = []
    while True:
        token = chaos.draw(drawable(scratch), rng)
        drawn.append(token)
        first = new_test and len(drawn) == 1
        step = {"investigator": investigator_id, "tokens": [token]}
        reveal(scratch, step, first, True, complete=False)
        if not wants_another(scratch, open_test(scratch)):
            return drawn


def change_bag(state: State, token: str, delta: int) -> None:
    bag = state["bag"]
    count = bag.get(token, 0) + delta
    label = data.TOKEN_LABELS[token]
    if token in data.POOL_TOKENS:
        if count + state["sealed"].get(token, 0) > data.POOL_LIMIT:
            raise CommandError(
                _("At most %(n)d %(token)s tokens, sealed ones included.")
                % {"n": data.POOL_LIMIT, "token": label},
                "count",
            )
    elif count > data.TOKEN_LIMIT:
        raise CommandError(
            _("At most %(n)d %(token)s tokens.") % {"n": data.TOKEN_LIMIT, "token": label}, "count"
        )
    if count < revealed_counts(state).get(token, 0) or count < 0:
        raise CommandError(
            _("There is no %(token)s token left in the bag to take out.") % {"token": label},
            "count",
        )
    if count:
        bag[token] = count
    else:
        bag.pop(token, None)


def need_token(payload: Payload, key: str = "token", choices=chaos.TOKENS) -> str:
    token = payload.get(key)
    if token not in choices:
        raise CommandError(_("There is no chaos token called “%(token)s”.") % {"token": token}, key)
    return token


def apply_bag_change(state: State, payload: Payload) -> None:
    change_bag(state, need_token(payload), need_int(payload, "delta", -99, 99))


def apply_bag_set(state: State, payload: Payload) -> None:
    token = need_token(payload)
    count = need_int(payload, "count", 0, 99)
    change_bag(state, token, count - state["bag"].get(token, 0))


def apply_seal(state: State, payload: Payload) -> None:
    token = need_token(payload)
    if drawable(state).get(token, 0) < 1:
        raise CommandError(
            _("There is no %(token)s token in the bag to seal.")
            % {"token": data.TOKEN_LABELS[token]},
            "token",
        )
    change_bag(state, token, -1)
    state["sealed"][token] = state["sealed"].get(token, 0) + 1


def apply_release(state: State, payload: Payload) -> None:
    token = need_token(payload)
    if state["sealed"].get(token, 0) < 1:
        raise CommandError(
            _("No %(token)s token is sealed.") % {"token": data.TOKEN_LABELS[token]}, "token"
        )
    state["sealed"][token] -= 1
    if not state["sealed"][token]:
        del state["sealed"][token]
    state["bag"][token] = state["bag"].get(token, 0) + 1


def resolve_draw(state: State, data_: Payload, rng: random.Random) -> Payload:
    who = state.get("active")
    return {
        "investigator": who,
        "who": name_of(state, who),
        "tokens": draw_chain(state, who, True, rng),
    }


def the_test_shown(state: State, data_: Payload) -> dict[str, Any]:
    """The open test, which must be the one the phone showed when it says which."""
    test = open_test(state)
    if test is None:
        raise CommandError(_("No test is going on: draw to start one."), "tokens")
    if data_.get("test") not in (None, test["id"]):
        raise CommandError(
            _("That test ended on another phone meanwhile: here is the one going on now."),
            "tokens",
        )
    return test


def resolve_another(state: State, data_: Payload, rng: random.Random) -> Payload:
    who = the_test_shown(state, data_)["investigator"]
    return {"who": name_of(state, who), "tokens": draw_chain(state, who, False, rng)}


def resolve_done(state: State, data_: Payload, rng: random.Random) -> Payload:
    the_test_shown(state, data_)
    return {}


def apply_draw(state: State, payload: Payload) -> None:
    reveal(state, payload, True, True)


def apply_another(state: State, payload: Payload) -> None:
    reveal(state, payload, False, True)


def apply_done(state: State, payload: Payload) -> None:
    if open_test(state) is None:
        raise CommandError(_("No test is going on."), "tokens")
    close_test(state)


def resolve_record(state: State, data_: Payload, rng: random.Random) -> Payload:
    into = data_.get("into") or "new"
    if into == "same":
        the_test_shown(state, data_)
    who = state.get("active") if into == "new" else (open_test(state) or {}).get("investigator")
    return {"token": data_["token"], "into": into, "investigator": who, "who": name_of(state, who)}


def apply_record(state: State, payload: Payload) -> None:
    token = need_token(payload)
    into = need_choice(payload, "into", ("new", "same"))
    reveal(state, {**payload, "tokens": [token]}, into == "new", False)


def apply_active(state: State, payload: Payload) -> None:
    if payload.get("investigator") in (None, 0):
        state["active"] = None
        return
    found = investigator(state, payload)
    state["active"] = found["id"]


def apply_effects(state: State, payload: Payload) -> None:
    if not state.get("scenario"):
        raise CommandError(_("Start a scenario first: the effects belong to it."), "skull")
    effects = payload.get("effects")
    if not isinstance(effects, dict) or set(effects) != set(data.SCENARIO_SYMBOLS):
        raise CommandError(_("Give the effect of each of the four symbols."), "skull")
    clean = {}
    for symbol in data.SCENARIO_SYMBOLS:
        effect = effects[symbol]
        if not isinstance(effect, dict) or set(effect) != {
            "modifier",
            "reveal_another",
            "auto_fail",
        }:
            raise CommandError(_("Give the effect of each of the four symbols."), symbol)
        clean[symbol] = {
            "modifier": need_int(effect, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
            "reveal_another": need_bool(effect, "reveal_another"),
            "auto_fail": need_bool(effect, "auto_fail"),
        }
        if clean[symbol]["auto_fail"]:
            clean[symbol].update(modifier=0, reveal_another=False)
    chaos.validate_effects(clean)
    state.setdefault("effects", {})[scenario_key(state)] = clean


def resolve_effects(state: State, data_: Payload, rng: random.Random) -> Payload:
    effects = {}
    for symbol in data.SCENARIO_SYMBOLS:
        mode = data_.get(symbol) or "modifier"
        effects[symbol] = {
            "modifier": 0 if mode == "fail" else data_.get(f"{symbol}_value") or 0,
            "reveal_another": mode == "again",
            "auto_fail": mode == "fail",
        }
    return {"scenario": state.get("scenario") or "", "effects": effects}


# Investigators


def refresh_status(found: dict[str, Any]) -> None:
    """Killed or insane by trauma, or as the group marked them (the group's word wins); one
    who has been replaced stays on the record as they left, whatever their trauma does."""
    if found.get("replaced_by") and found["status"] != "active":
        return
    if found["marked"]:
        found["status"] = found["marked"]
    elif found["physical"] >= found["health"]:
        found["status"] = "killed"
    elif found["mental"] >= found["sanity"]:
        found["status"] = "insane"
    else:
        found["status"] = "active"


def keep_active_in_play(state: State) -> None:
    """The investigator the bag tests for must be in play: one killed or insane is not."""
    active = state.get("active")
    found = next((i for i in state.get("investigators", []) if i["id"] == active), None)
    if found is not None and found["status"] != "active":
        state["active"] = None


def apply_add_investigator(state: State, payload: Payload) -> None:
    people = state.setdefault("investigators", [])
    if len(people) >= MAX_INVESTIGATORS:
        raise CommandError(_("That is more investigators than a campaign keeps."), "name")
    replaces = payload.get("replaces")
    old = None
    if replaces is not None:
        old = investigator(state, payload, "replaces")
        if old["status"] == "active":
            raise CommandError(
                _("%(name)s is neither killed nor insane, so needs no replacement.")
                % {"name": old["name"]},
                "replaces",
            )
        if old.get("replaced_by"):
            raise CommandError(
                _("%(name)s has already been replaced.") % {"name": old["name"]}, "replaces"
            )
    found = {
        "id": next_id(state),
        "player": need_str(payload, "player", NAME, blank=True).strip(),
        "name": need_str(payload, "name", NAME).strip(),
        "health": need_int(payload, "health", 1, 30),
        "sanity": need_int(payload, "sanity", 1, 30),
        "physical": 0,
        "mental": 0,
        "xp": 0,
        "spent": 0,
        "marked": None,
        "status": "active",
        "elder": {"modifier": 0, "auto_succeed": False},
        "items": [],
        "purchases": [],
        "supplies": {},
        "replaces": old["id"] if old else None,
        "replaced_by": None,
    }
    if old:
        old["replaced_by"] = found["id"]
        if state.get("active") == old["id"]:
            state["active"] = found["id"]
    people.append(found)
    if state.get("active") is None:
        state["active"] = found["id"]


TRAUMA_KINDS = ("physical", "mental")


def apply_trauma(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    kind = need_choice(payload, "kind", TRAUMA_KINDS)
    value = found[kind] + need_int(payload, "delta", -30, 30)
    set_trauma(found, kind, value)
    keep_active_in_play(state)


def set_trauma(found: dict[str, Any], kind: str, value: int) -> None:
    if value < 0:
        message = (
            _("%(name)s's physical trauma cannot go below 0.")
            if kind == "physical"
            else _("%(name)s's mental trauma cannot go below 0.")
        )
        raise CommandError(message % {"name": found["name"]}, kind)
    if value > 30:
        raise CommandError(_("Keep trauma to 30 or less."), kind)
    found[kind] = value
    refresh_status(found)


def apply_xp(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    value = found["xp"] + need_int(payload, "delta", -200, 200)
    if value < found["spent"]:
        raise CommandError(
            _("%(name)s has spent %(spent)d XP: earned XP cannot go below that.")
            % {"name": found["name"], "spent": found["spent"]},
            "delta",
        )
    if value > 999:
        raise CommandError(_("Keep XP to 999 or less."), "delta")
    found["xp"] = value


def xp_cost(level: int) -> int:
    return max(1, level)


def apply_buy(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    level = need_int(payload, "level", 0, 5)
    card = need_str(payload, "card", NAME, blank=True).strip()
    cost = xp_cost(level)
    unspent = found["xp"] - found["spent"]
    if cost > unspent:
        raise CommandError(
            _("Not enough XP: that costs %(cost)d and %(name)s has %(left)d unspent.")
            % {"cost": cost, "name": found["name"], "left": unspent},
            "level",
        )
    if len(found["purchases"]) >= MAX_ITEMS:
        raise CommandError(_("Too many purchases to keep."), "card")
    found["spent"] += cost
    found["purchases"].append({"card": card, "level": level, "cost": cost})


STATUSES = ("active", "killed", "insane")


def apply_mark(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    status = need_choice(payload, "status", STATUSES)
    if status == "active" and (
        found["physical"] >= found["health"] or found["mental"] >= found["sanity"]
    ):
        raise CommandError(
            _("%(name)s's trauma reaches their health or sanity: lower it first.")
            % {"name": found["name"]},
            "status",
        )
    if status == "active" and found.get("replaced_by"):
        raise CommandError(
            _("%(name)s has been replaced: undo the replacement instead.")
            % {"name": found["name"]},
            "status",
        )
    found["marked"] = None if status == "active" else status
    refresh_status(found)
    keep_active_in_play(state)


ITEM_KINDS = ("asset", "weakness")


def apply_item(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    if len(found["items"]) >= MAX_ITEMS:
        raise CommandError(_("Too many cards to keep."), "text")
    found["items"].append(
        {
            "id": next_id(state),
            "kind": need_choice(payload, "kind", ITEM_KINDS),
            "text": need_str(payload, "text", NAME).strip(),
        }
    )


def apply_remove_item(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    item = need_int(payload, "item")
    before = len(found["items"])
    found["items"] = [i for i in found["items"] if i["id"] != item]
    if len(found["items"]) == before:
        raise CommandError(_("That card is not on the record any more."), "item")


def apply_elder(state: State, payload: Payload) -> None:
    found = investigator(state, payload)
    found["elder"] = {
        "modifier": need_int(payload, "modifier", -SKILL_LIMIT, SKILL_LIMIT),
        "auto_succeed": need_bool(payload, "auto_succeed"),
    }


def supplies_allowed(state: State) -> None:
    if not data.CAMPAIGNS.get(state["campaign"], {}).get("supplies"):
        raise CommandError(_("This campaign has no supplies."), "supply")


def apply_supply(state: State, payload: Payload) -> None:
    supplies_allowed(state)
    found = investigator(state, payload)
    key = need_choice(payload, "supply", tuple(data.SUPPLIES))
    label, _cost, multiple = data.SUPPLIES[key]
    count = found["supplies"].get(key, 0)
    if count and not multiple:
        raise CommandError(
            _("%(name)s already has %(supply)s.") % {"name": found["name"], "supply": label},
            "supply",
        )
    if count >= 20:
        raise CommandError(_("That is as many as one can carry."), "supply")
    found["supplies"][key] = count + 1


def apply_use_supply(state: State, payload: Payload) -> None:
    supplies_allowed(state)
    found = investigator(state, payload)
    key = need_choice(payload, "supply", tuple(data.SUPPLIES))
    if not found["supplies"].get(key):
        raise CommandError(
            _("%(name)s has no %(supply)s.")
            % {"name": found["name"], "supply": data.SUPPLIES[key][0]},
            "supply",
        )
    found["supplies"][key] -= 1
    if not found["supplies"][key]:
        del found["supplies"][key]


# Scenarios and the round


def fresh_round() -> dict[str, Any]:
    return {
        "number": 1,
        "step": data.FIRST_STEP,
        "doom": 0,
        "threshold": None,
        "agenda": 1,
        "advanced": None,
    }


def end_scenario_tokens(state: State) -> None:
    """At a scenario's end bless and curse leave the bag, and every other sealed token goes
    back into it (the cards that sealed them leave play); frost stays."""
    for token in data.POOL_TOKENS:
        state["bag"].pop(token, None)
        state["sealed"].pop(token, None)
    for token, count in state["sealed"].items():
        state["bag"][token] = state["bag"].get(token, 0) + count
    state["sealed"] = {}


def apply_start(state: State, payload: Payload) -> None:
    close_test(state)
    if state.get("scenario"):
        # Starting another scenario ends the one going on, as recording it would.
        end_scenario_tokens(state)
    state["scenario"] = need_str(payload, "name", NAME).strip()
    state["round"] = fresh_round()


def bag_changes(payload: Payload) -> list[dict[str, Any]]:
    changes = payload.get("bag", [])
    if not isinstance(changes, list) or len(changes) > 40:
        raise CommandError(_("The bag changes are not a list."), "bag")
    return changes


def apply_record_scenario(state: State, payload: Payload) -> None:
    """After a scenario, everything at once: one event, so one undo takes it all back."""
    close_test(state)
    name = need_str(payload, "scenario", NAME).strip()
    resolution = need_str(payload, "resolution", NAME, blank=True).strip()
    rows = payload.get("investigators", [])
    if not isinstance(rows, list) or len(rows) > MAX_INVESTIGATORS:
        raise CommandError(_("The investigators are not a list."), "investigators")
    seen: set[int] = set()
    results = []
    for row in rows:
        if not isinstance(row, dict):
            raise CommandError(_("The investigators are not a list."), "investigators")
        found = investigator(state, row, "id")
        if found["id"] in seen:
            raise CommandError(_("An investigator is listed twice."), "investigators")
        seen.add(found["id"])
        who = {"name": found["name"]}
        key = found["id"]
        xp = need_int(row, "xp")
        if not 0 <= xp <= 100:
            raise CommandError(_("%(name)s: XP gained must be from 0 to 100.") % who, f"xp-{key}")
        gains = {}
        for kind in TRAUMA_KINDS:
            gains[kind] = need_int(row, kind)
            if gains[kind] < 0:
                message = (
                    _("%(name)s: physical trauma gained cannot be negative.")
                    if kind == "physical"
                    else _("%(name)s: mental trauma gained cannot be negative.")
                )
                raise CommandError(message % who, f"{kind}-{key}")
            if found[kind] + gains[kind] > 30:
                raise CommandError(_("Keep trauma to 30 or less."), f"{kind}-{key}")
            set_trauma(found, kind, found[kind] + gains[kind])
        fate = row.get("fate") or ""
        if fate not in ("", "killed", "insane"):
            raise CommandError(_("%(name)s: killed or insane, or neither.") % who, f"fate-{key}")
        found["xp"] = min(found["xp"] + xp, 999)
        if fate:
            found["marked"] = fate
        refresh_status(found)
        results.append(
            {
                "id": found["id"],
                "name": found["name"],
                "xp": xp,
                "physical": gains["physical"],
                "mental": gains["mental"],
                "status": found["status"],
            }
        )
    keep_active_in_play(state)
    end_scenario_tokens(state)
    changes = []
    for change in bag_changes(payload):
        if not isinstance(change, dict):
            raise CommandError(_("The bag changes are not a list."), "bag")
        token = need_token(change, "token", [t for t in chaos.TOKENS if t not in data.POOL_TOKENS])
        delta = need_int(change, "delta", -20, 20)
        change_bag(state, token, delta)
        changes.append({"token": token, "delta": delta})
    if not isinstance(payload.get("entries", []), list) or not isinstance(
        payload.get("counters", []), list
    ):
        raise CommandError(_("The log entries are not a list."), "entries")
    entries = []
    for entry in payload.get("entries", []):
        if not isinstance(entry, dict):
            raise CommandError(_("The log entries are not a list."), "entries")
        trackers.apply_note(state, {"tracker": entry.get("tracker"), "text": entry.get("text")})
        section = trackers.tracker(state, entry, "notes")
        entries.append({"section": section["name"], "text": section["entries"][-1]["text"]})
    for entry in payload.get("counters", []):
        if not isinstance(entry, dict):
            raise CommandError(_("The log entries are not a list."), "counters")
        trackers.apply_adjust(state, {"tracker": entry.get("tracker"), "delta": entry.get("delta")})
        section = trackers.tracker(state, entry, "counter")
        entries.append(
            {"section": section["name"], "text": f"{entry['delta']:+d} → {section['value']}"}
        )
    scenarios = state.setdefault("scenarios", [])
    if len(scenarios) >= 500:
        raise CommandError(_("Too many scenarios to keep."), "scenario")
    scenarios.append(
        {
            "id": next_id(state),
            "name": name,
            "resolution": resolution,
            "investigators": results,
            "bag": changes,
            "entries": entries,
        }
    )
    state["scenario"] = None
    state["round"] = fresh_round()


def resolve_record_scenario(state: State, data_: Payload, rng: random.Random) -> Payload:
    people: dict[int, dict[str, Any]] = {}
    entries, counters = [], []
    for key, value in data_.items():
        kind, _sep, number = key.partition("-")
        if not number.isdigit():
            continue
        ident = int(number)
        if kind in ("xp", "physical", "mental", "fate"):
            row = people.setdefault(ident, {"id": ident, "xp": 0, "physical": 0, "mental": 0})
            row[kind] = value if value is not None else (0 if kind != "fate" else "")
        elif kind == "entry":
            for line in (value or "").splitlines():
                if line.strip():
                    entries.append({"tracker": ident, "text": line.strip()[:1000]})
        elif kind == "count" and value:
            counters.append({"tracker": ident, "delta": value})
    changes = []
    for n in forms.BAG_ROWS:
        token, count = data_.get(f"bag_token_{n}"), data_.get(f"bag_count_{n}") or 0
        if token and count:
            sign = -1 if data_.get(f"bag_op_{n}") == "remove" else 1
            changes.append({"token": token, "delta": sign * count})
    return {
        "scenario": data_["scenario"],
        "resolution": data_.get("resolution", ""),
        "investigators": [people[k] for k in sorted(people)],
        "bag": changes,
        "entries": entries,
        "counters": counters,
    }


def apply_round_next(state: State, payload: Payload) -> None:
    rnd = state["round"]
    step = need_choice(payload, "from", data.STEP_CODES)
    if step != rnd["step"]:
        raise CommandError(_("The round has moved on meanwhile: here is where it is."), "from")
    if need_bool(payload, "loop"):
        if step != "2.2.2":
            raise CommandError(_("Only a turn's end leads to the next turn."), "from")
        rnd["step"] = "2.2"
        return
    index = data.STEP_CODES.index(step)
    if index == len(data.STEP_CODES) - 1:
        rnd["number"] += 1
        rnd["step"] = data.STEP_CODES[0]
        rnd["advanced"] = None
        return
    rnd["step"] = data.STEP_CODES[index + 1]
    if rnd["step"] == "1.2":
        rnd["doom"] += 1
    if rnd["step"] == "1.3" and rnd["threshold"] and rnd["doom"] >= rnd["threshold"]:
        rnd["agenda"] += 1
        rnd["doom"] = 0
        rnd["advanced"] = rnd["number"]


def apply_round_doom(state: State, payload: Payload) -> None:
    rnd = state["round"]
    value = rnd["doom"] + need_int(payload, "delta", -99, 99)
    if value < 0:
        raise CommandError(_("Doom cannot go below 0."), "delta")
    if value > 99:
        raise CommandError(_("Keep doom to 99 or less."), "delta")
    rnd["doom"] = value


def apply_round_threshold(state: State, payload: Payload) -> None:
    value = payload.get("threshold")
    state["round"]["threshold"] = None if value is None else need_int(payload, "threshold", 1, 99)


def apply_round_agenda(state: State, payload: Payload) -> None:
    state["round"]["agenda"] = need_int(payload, "agenda", 1, 20)


# Words for the history (translated when read)


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−") if value else "0"


def token_words(tokens: Any) -> str:
    if not isinstance(tokens, list):
        return ""
    return ", ".join(str(data.TOKEN_LABELS.get(t, t)) for t in tokens)


def describe_draw(p: Payload) -> str:
    if p.get("who"):
        return _("Drew %(tokens)s for %(who)s") % {
            "tokens": token_words(p.get("tokens")),
            "who": p["who"],
        }
    return _("Drew %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def describe_another(p: Payload) -> str:
    return _("Revealed another: %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def describe_record(p: Payload) -> str:
    return _("Recorded a drawn %(token)s") % {"token": token_words([p.get("token")])}


def describe_bag_change(p: Payload) -> str:
    template = (
        _("Put %(n)d %(token)s in the bag")
        if p.get("delta", 0) > 0
        else _("Took %(n)d %(token)s out of the bag")
    )
    return template % {"n": abs(p.get("delta", 0)), "token": token_words([p.get("token")])}


def describe_investigator(template: str):
    def describe(p: Payload) -> str:
        return _(template) % {
            "name": p.get("name", ""),
            "kind": p.get("kind", ""),
            "delta": signed(p.get("delta", 0)) if isinstance(p.get("delta"), int) else "",
            "text": p.get("text", ""),
            "card": p.get("card", ""),
            "level": p.get("level", ""),
            "status": p.get("status", ""),
            "supply": data.SUPPLIES.get(p.get("supply"), ("",))[0],
        }

    return describe


def describe_trauma(p: Payload) -> str:
    template = (
        _("%(name)s: physical trauma %(delta)s")
        if p.get("kind") == "physical"
        else _("%(name)s: mental trauma %(delta)s")
    )
    return template % {"name": p.get("name", ""), "delta": signed(p.get("delta", 0))}


def describe_mark(p: Payload) -> str:
    status = p.get("status")
    if status == "killed":
        return _("%(name)s marked killed") % {"name": p.get("name", "")}
    if status == "insane":
        return _("%(name)s marked insane") % {"name": p.get("name", "")}
    return _("%(name)s back in play") % {"name": p.get("name", "")}


def describe_buy(p: Payload) -> str:
    return _("%(name)s spent %(cost)d XP on %(card)s (level %(level)s)") % {
        "name": p.get("name", ""),
        "cost": xp_cost(p["level"]) if isinstance(p.get("level"), int) else 0,
        "card": p.get("card") or _("a card"),
        "level": p.get("level", ""),
    }


def describe_item(p: Payload) -> str:
    template = (
        _("%(name)s earned the weakness “%(text)s”")
        if p.get("kind") == "weakness"
        else _("%(name)s earned the story asset “%(text)s”")
    )
    return template % {"name": p.get("name", ""), "text": p.get("text", "")}


def describe_add(p: Payload) -> str:
    if p.get("replaces") is not None:
        return _("%(name)s replaces %(old)s") % {"name": p.get("name"), "old": p.get("old", "")}
    return _("%(name)s joins the campaign") % {"name": p.get("name")}


def describe_scenario(p: Payload) -> str:
    if p.get("resolution"):
        return _("Recorded the scenario “%(name)s”: %(resolution)s") % {
            "name": p.get("scenario"),
            "resolution": p["resolution"],
        }
    return _("Recorded the scenario “%(name)s”") % {"name": p.get("scenario")}


def describe_round(p: Payload) -> str:
    if p.get("loop"):
        return _("Round helper: the next investigator's turn")
    index = data.STEP_CODES.index(p["from"]) if p.get("from") in data.STEP_CODES else -1
    after = data.STEP_CODES[(index + 1) % len(data.STEP_CODES)] if index >= 0 else "?"
    return _("Round helper: step %(step)s") % {"step": after}


def describe_effects(p: Payload) -> str:
    return _("Set the token effects for “%(name)s”") % {"name": p.get("scenario", "")}


# Resolve steps that copy names into the payload, for the history


def with_investigator(state: State, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    payload["name"] = investigator(state, payload)["name"]
    return payload


def resolve_add(state: State, data_: Payload, rng: random.Random) -> Payload:
    payload = dict(data_)
    if payload.get("replaces") is not None:
        payload["old"] = investigator(state, payload, "replaces")["name"]
    return payload


def resolve_active(state: State, data_: Payload, rng: random.Random) -> Payload:
    ident = data_.get("investigator") or None
    return {"investigator": ident, "name": name_of(state, ident) if ident else ""}


COMMANDS: dict[str, Command] = {
    "bag.draw": Command("bag.draw", forms.EmptyForm, apply_draw, describe_draw, resolve_draw),
    "bag.another": Command(
        "bag.another", forms.TestForm, apply_another, describe_another, resolve_another
    ),
    "bag.done": Command(
        "bag.done",
        forms.TestForm,
        apply_done,
        lambda p: _("Ended the test: tokens returned"),
        resolve_done,
    ),
    "bag.record": Command(
        "bag.record", forms.RecordForm, apply_record, describe_record, resolve_record
    ),
    "bag.change": Command("bag.change", forms.BagChangeForm, apply_bag_change, describe_bag_change),
    "bag.set": Command(
        "bag.set",
        forms.BagSetForm,
        apply_bag_set,
        lambda p: (
            _("%(token)s in the bag set to %(n)s")
            % {"token": token_words([p.get("token")]), "n": p.get("count")}
        ),
        stale_check=True,
    ),
    "bag.seal": Command(
        "bag.seal",
        forms.TokenForm,
        apply_seal,
        lambda p: _("Sealed a %(token)s token") % {"token": token_words([p.get("token")])},
    ),
    "bag.release": Command(
        "bag.release",
        forms.TokenForm,
        apply_release,
        lambda p: _("Released a sealed %(token)s token") % {"token": token_words([p.get("token")])},
    ),
    "bag.active": Command(
        "bag.active",
        forms.ActiveForm,
        apply_active,
        lambda p: (
            _("%(name)s is the investigator testing") % {"name": p.get("name")}
            if p.get("name")
            else _("No investigator chosen for tests")
        ),
        resolve_active,
    ),
    "scenario.effects": Command(
        "scenario.effects",
        forms.EffectsForm,
        apply_effects,
        describe_effects,
        resolve_effects,
        stale_check=True,
    ),
    "scenario.start": Command(
        "scenario.start",
        forms.StartForm,
        apply_start,
        lambda p: _("Started the scenario “%(name)s”") % {"name": p.get("name")},
    ),
    "scenario.record": Command(
        "scenario.record",
        forms.ScenarioForm,
        apply_record_scenario,
        describe_scenario,
        resolve_record_scenario,
    ),
    "investigator.add": Command(
        "investigator.add",
        forms.InvestigatorForm,
        apply_add_investigator,
        describe_add,
        resolve_add,
    ),
    "investigator.trauma": Command(
        "investigator.trauma", forms.TraumaForm, apply_trauma, describe_trauma, with_investigator
    ),
    "investigator.xp": Command(
        "investigator.xp",
        forms.DeltaForm,
        apply_xp,
        describe_investigator(gettext_noop("%(name)s: XP earned %(delta)s")),
        with_investigator,
    ),
    "investigator.buy": Command(
        "investigator.buy", forms.BuyForm, apply_buy, describe_buy, with_investigator
    ),
    "investigator.mark": Command(
        "investigator.mark", forms.MarkForm, apply_mark, describe_mark, with_investigator
    ),
    "investigator.item": Command(
        "investigator.item", forms.ItemForm, apply_item, describe_item, with_investigator
    ),
    "investigator.unitem": Command(
        "investigator.unitem",
        forms.UnitemForm,
        apply_remove_item,
        describe_investigator(gettext_noop("%(name)s: took a card off the record")),
        with_investigator,
    ),
    "investigator.elder": Command(
        "investigator.elder",
        forms.ElderForm,
        apply_elder,
        describe_investigator(gettext_noop("%(name)s: set the elder sign effect")),
        with_investigator,
        stale_check=True,
    ),
    "supply.add": Command(
        "supply.add",
        forms.SupplyForm,
        apply_supply,
        describe_investigator(gettext_noop("%(name)s took %(supply)s")),
        with_investigator,
    ),
    "supply.use": Command(
        "supply.use",
        forms.SupplyForm,
        apply_use_supply,
        describe_investigator(gettext_noop("%(name)s used up %(supply)s")),
        with_investigator,
    ),
    "round.next": Command("round.next", forms.RoundNextForm, apply_round_next, describe_round),
    "round.doom": Command(
        "round.doom",
        forms.DeltaOnlyForm,
        apply_round_doom,
        lambda p: _("Doom %(delta)s") % {"delta": signed(p.get("delta", 0))},
    ),
    "round.threshold": Command(
        "round.threshold",
        forms.ThresholdForm,
        apply_round_threshold,
        lambda p: _("Doom threshold set to %(n)s") % {"n": p.get("threshold") or "—"},
        stale_check=True,
    ),
    "round.agenda": Command(
        "round.agenda",
        forms.AgendaForm,
        apply_round_agenda,
        lambda p: _("Now on agenda %(n)s") % {"n": p.get("agenda")},
        stale_check=True,
    ),
}
