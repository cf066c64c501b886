"""What the Arkham pages show, worked out from the state (and, for the odds, the request)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from campaigns.commands import State
from campaigns.engines import chaos
from campaigns.games.arkham import commands, data, forms
from campaigns.trackers import KINDS, tracker_items

MARGINS = range(-2, 7)
TABLE_DIFFICULTY = 2  # any difficulty of 1 or more gives the same table (the floor at 0 aside)


def percent(chance: Fraction) -> str:
    """A chance as a percentage with one decimal, rounded half up, from the exact fraction."""
    tenths = chance * 1000
    rounded = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    return f"{rounded // 10}.{rounded % 10}%"


def signed(value: int) -> str:
    return commands.signed(value)


def effect_text(entry: dict[str, Any]) -> str:
    """What a revealed token did, in words."""
    if entry.get("second_frost"):
        return _("a second frost: automatic failure")
    if entry["modifier"] is None:
        return _("automatic failure")
    parts = [_("automatic success") if entry.get("succeed") else signed(entry["modifier"])]
    if entry["again"]:
        parts.append(_("reveal another"))
    return ", ".join(parts)


def outcome_text(test: dict[str, Any]) -> str:
    if test["auto_fail"]:
        return _("Automatic failure")
    if test["auto_succeed"]:
        return _("Automatic success")
    return _("Modifier %(total)s") % {"total": signed(test["total"])}


def token_view(token: str, **extra: Any) -> dict[str, Any]:
    return {
        "token": token,
        "label": data.TOKEN_LABELS[token],
        "icon": f"icons/arkham/{data.TOKEN_ICONS[token]}.svg",
        **extra,
    }


def test_view(state: State, test: dict[str, Any]) -> dict[str, Any]:
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
    pending = test.get("open") and commands.wants_another(state, test)
    return {
        **test,
        "tokens": tokens,
        "outcome": outcome_text(test) if tokens else "",
        "pending": pending,
    }


def which_page(request) -> str:
    if request is None:
        return ""
    match = getattr(request, "resolver_match", None)
    page = match.kwargs.get("page", "") if match else ""
    if request.method == "POST":
        page = request.POST.get("page") or request.POST.get("back") or page
    return page


def acted(request) -> str:
    if request is None or request.method != "POST":
        return ""
    match = getattr(request, "resolver_match", None)
    return match.kwargs.get("action", "") if match else ""


def odds(state: State, active_id: Any, request) -> dict[str, Any]:
    bag = commands.resting_bag(state)
    effects = commands.effects_for(state, active_id)
    result: dict[str, Any] = {"empty": not bag, "form": None, "typed": None}
    query = request.GET if request is not None else {}
    if "skill" in query or "difficulty" in query:
        form = forms.OddsForm(query)
        result["form"] = form
        if form.is_valid() and bag:
            chance = chaos.success_probability(
                bag, form.cleaned_data["skill"], form.cleaned_data["difficulty"], effects
            )
            result["typed"] = percent(chance)
    if bag:
        table = chaos.pass_table(bag, effects, TABLE_DIFFICULTY, MARGINS)
        result["rows"] = [
            {"margin": signed(m), "chance": percent(c), "width": f"{float(c * 100):.2f}"}
            for m, c in table.items()
        ]
    return result


def investigator_view(state: State, found: dict[str, Any]) -> dict[str, Any]:
    names = {i["id"]: i["name"] for i in state.get("investigators", [])}
    supplies = [
        {"key": key, "label": data.SUPPLIES[key][0], "count": n}
        for key, n in found["supplies"].items()
        if key in data.SUPPLIES
    ]
    return {
        **found,
        "unspent": found["xp"] - found["spent"],
        "status_label": {
            "active": _("in play"),
            "killed": _("killed"),
            "insane": _("insane"),
        }[found["status"]],
        "replaced_by_name": names.get(found.get("replaced_by"), ""),
        "replaces_name": names.get(found.get("replaces"), ""),
        "assets": [i for i in found["items"] if i["kind"] == "asset"],
        "weaknesses": [i for i in found["items"] if i["kind"] == "weakness"],
        "supply_list": supplies,
        "supply_spent": sum(data.SUPPLIES[s["key"]][1] * s["count"] for s in supplies),
        "elder_text": _("automatic success")
        if found["elder"]["auto_succeed"]
        else signed(found["elder"]["modifier"]),
        "region": f"inv-{found['id']}",
        "keys": {k: f"{k}-{found['id']}" for k in ("xp", "physical", "mental", "fate")},
        "last_purchases": found["purchases"][-3:][::-1],
    }


def log_items(state: State) -> list[dict[str, Any]]:
    own = set(state.get("log_ids", []))
    items = []
    for item in tracker_items(state):
        if item["t"]["id"] in own:
            item = {**item, "t": {**item["t"], "name": _(item["t"]["name"])}, "own": True}
        items.append(item)
    return items


def round_view(state: State) -> dict[str, Any]:
    rnd = state["round"]
    current = data.STEP_CODES.index(rnd["step"])
    labels = dict(data.STEPS)
    phases = []
    for phase, phase_label in data.PHASES.items():
        steps = []
        for index, (code, label) in enumerate(data.STEPS):
            if code.split(".")[0] != phase:
                continue
            if rnd["number"] == 1 and phase == "1":
                status = "skipped"
            elif index < current:
                status = "done"
            elif index == current:
                status = "current"
            else:
                status = "todo"
            steps.append({"code": code, "label": label, "status": status})
        phases.append(
            {
                "code": phase,
                "label": phase_label,
                "steps": steps,
                "current": rnd["step"].split(".")[0] == phase,
                "skipped": rnd["number"] == 1 and phase == "1",
            }
        )
    following = (
        data.STEP_CODES[current + 1] if current + 1 < len(data.STEP_CODES) else data.STEP_CODES[0]
    )
    return {
        **rnd,
        "label": labels[rnd["step"]],
        "phase_label": data.PHASES[rnd["step"].split(".")[0]],
        "phases": phases,
        "next_code": following,
        "next_label": labels[following],
        "new_round": current == len(data.STEP_CODES) - 1,
        "turn_end": rnd["step"] == "2.2.2",
        "just_advanced": rnd.get("advanced") == rnd["number"] and rnd["step"] == "1.3",
        "reached": bool(rnd["threshold"]) and rnd["doom"] >= rnd["threshold"],
    }


def context(campaign, state: State, request=None) -> dict[str, Any]:
    if "bag" not in state:  # not an Arkham state (should not happen): show nothing
        return {}
    page = which_page(request)
    people = [investigator_view(state, i) for i in state.get("investigators", [])]
    active = next((p for p in people if p["id"] == state.get("active")), None)
    effects = commands.effects_for(state, state.get("active"))
    out = commands.revealed_counts(state)
    contents = []
    for token in chaos.TOKENS:
        rule = commands.token_rule(token, effects)
        contents.append(
            token_view(
                token,
                count=state["bag"].get(token, 0),
                out=out.get(token, 0),
                sealed=state["sealed"].get(token, 0),
                effect=effect_text(rule),
                pool=token in data.POOL_TOKENS,
                symbol=token in chaos.SYMBOLS,
                limit=data.POOL_LIMIT if token in data.POOL_TOKENS else data.TOKEN_LIMIT,
            )
        )
    for item in contents:
        item["total"] = item["count"] + item["sealed"]
    test = commands.open_test(state)
    draws = [test_view(state, d) for d in reversed(state.get("draws", []))]
    stats_tokens = state["stats"]["tokens"]
    drawn_total = sum(stats_tokens.values())
    resting = commands.resting_bag(state)
    size = sum(resting.values())
    stats = [
        token_view(
            t,
            count=stats_tokens.get(t, 0),
            share=percent(Fraction(stats_tokens.get(t, 0), drawn_total)) if drawn_total else "",
            expected=percent(Fraction(resting.get(t, 0), size)) if size else "",
        )
        for t in chaos.TOKENS
        if stats_tokens.get(t) or resting.get(t)
    ]
    scenario_effects = state.get("effects", {}).get(commands.scenario_key(state), {})
    effect_rows = []
    for symbol in data.SCENARIO_SYMBOLS:
        effect = scenario_effects.get(symbol, {})
        mode = (
            "fail"
            if effect.get("auto_fail")
            else "again"
            if effect.get("reveal_another")
            else "modifier"
        )
        effect_rows.append(
            token_view(symbol, mode=mode, value=effect.get("modifier", 0), known=bool(effect))
        )
    caveats = [
        text
        for key, text in data.CAVEATS.items()
        if key in ((state["campaign"], state["difficulty"]), (state["campaign"], None))
    ]
    log = log_items(state)
    in_play = [p for p in people if p["status"] == "active"]
    record_fields = ["scenario", "resolution"]
    record_fields += [key for p in in_play for key in p["keys"].values()]
    record_fields += [
        f"bag_{part}_{n}" for n in forms.BAG_ROWS for part in ("op", "token", "count")
    ]
    record_fields += [f"{kind}-{i['id']}" for i in state["trackers"] for kind in ("entry", "count")]
    return {
        "ark": {
            "campaign_label": data.CAMPAIGNS[state["campaign"]]["name"],
            "difficulty_label": data.DIFFICULTIES[state["difficulty"]],
            "band_label": data.BAND_LABELS[data.BANDS[state["difficulty"]]],
            "custom": state["campaign"] == data.CUSTOM,
            "fresh": not state["stats"]["tests"] and not state.get("scenarios"),
            "caveats": caveats,
            "contents": contents,
            "in_bag": [c for c in contents if c["count"]],
            "sealed": [c for c in contents if c["sealed"]],
            "pool": [c for c in contents if c["pool"]],
            "bag_size": size,
            "drawable": sum(commands.drawable(state).values()),
            "investigators": people,
            "in_play": in_play,
            "active": active,
            "test": test_view(state, test) if test else None,
            "draws": draws,
            "stats": stats,
            "tests": state["stats"]["tests"],
            "drawn_total": drawn_total,
            # Only a live refresh (another phone's change) buzzes; the phone that drew, or one
            # that just opened the page, shows the token as already felt.
            # The change this answer follows, so the form used stays open for the next tap.
            "acted": acted(request),
            "acted_in": request.POST.get("region", "") if acted(request) else "",
            "buzz": request is not None and request.headers.get("X-Live-Refresh") == "true",
            "odds": odds(state, state.get("active"), request) if page == "bag" else None,
            "margins_difficulty": TABLE_DIFFICULTY,
            "effect_rows": effect_rows,
            "effect_modes": forms.EFFECT_MODES,
            "scenario": state.get("scenario"),
            "log": log,
            "notes_sections": [
                {**i, "key": f"entry-{i['t']['id']}"} for i in log if i["t"]["kind"] == "notes"
            ],
            "counter_sections": [
                {**i, "key": f"count-{i['t']['id']}"} for i in log if i["t"]["kind"] == "counter"
            ],
            "section_kinds": [(k, KINDS[k]) for k in ("notes", "counter", "checklist")],
            "scenarios": [
                {
                    **s,
                    "entries": [{**e, "section": _(e["section"])} for e in s["entries"]],
                    "bag": [
                        {
                            "added": b["delta"] > 0,
                            "n": abs(b["delta"]),
                            "label": data.TOKEN_LABELS[b["token"]],
                        }
                        for b in s["bag"]
                    ],
                }
                for s in state.get("scenarios", [])
            ],
            "round": round_view(state),
            "token_choices": [(t, data.TOKEN_LABELS[t]) for t in forms.NON_POOL],
            "bag_rows": [
                {"n": n, "op": f"bag_op_{n}", "token": f"bag_token_{n}", "count": f"bag_count_{n}"}
                for n in forms.BAG_ROWS
            ],
            "record_fields": record_fields,
            "supplies": data.CAMPAIGNS[state["campaign"]].get("supplies", False),
            "supply_choices": [(k, v[0], v[1]) for k, v in data.SUPPLIES.items()],
            "supply_points": data.SUPPLY_POINTS.get(min(max(len(in_play), 1), 4)),
            "trauma_kinds": [
                ("physical", _("Physical trauma")),
                ("mental", _("Mental trauma")),
            ],
        }
    }
