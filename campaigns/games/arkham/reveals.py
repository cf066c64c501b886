"""The chain of reveals in a skill test (``shared/spec/rules.md`` §1b, ST.3–ST.6): each token
revealed says what it adds, whether to reveal another (bless, curse, frost, a symbol marked so)
and whether the test fails or succeeds at once (auto-fail, a second frost, an elder sign that
says so); X for the symbols whose effect adds X times something, set when the test starts; the
end of a test. The rule itself is the engine's (``campaigns.engines.chaos.chain``); this module
keeps a test's tokens in the state by it. The commands that draw, reveal another, choose or end
a test are ``draw``'s.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext as _

from campaigns.commands import CommandError, Payload, need_int, need_opt_int, next_id
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.bag import MAX_DRAWS, drawable, open_test
from campaigns.games.arkham.bless_curse import resting_bag, return_to_pool
from campaigns.games.arkham.common import effects_for, investigator, name_of
from campaigns.games.arkham.frost import mark_second_frosts
from campaigns.games.arkham.state import ArkhamState, RevealedToken, Test


def reveals_of(test: Test) -> list[chaos.Reveal]:
    """The test's tokens as the engine's chain rule reads them (each as it did when revealed)."""
    return [
        chaos.Reveal(
            e["token"],
            e["modifier"],
            e["again"],
            e["succeed"],
            int(e.get("more", 1)),
            int(e.get("others", 1)),
            int(e.get("harder", 0)),
        )
        for e in test["tokens"]
    ]


def store_outcome(test: Test) -> None:
    """The test's outcome from its tokens, by the engine's chain rule."""
    outcome = chaos.chain(reveals_of(test))
    mark_second_frosts(test, outcome)
    test["total"] = outcome.total
    test["auto_fail"] = outcome.auto_fail
    test["auto_succeed"] = outcome.auto_succeed
    if outcome.harder:
        test["harder"] = outcome.harder


def wants_another(state: ArkhamState, test: Test) -> bool:
    """Whether the rules make the test reveal another token now (and one is left to reveal)."""
    return chaos.chain(reveals_of(test)).goes_on and bool(drawable(state))


# X: a number the group sets when the test starts, for the symbols whose effect is −X or +X


def wants_x(state: ArkhamState, investigator_id: object) -> list[str]:
    """The symbols in the bag whose effect for this test adds X times something."""
    effects = effects_for(state, investigator_id)
    return [s for s in chaos.SYMBOLS if effects.get(s, {}).get("per_x") and state["bag"].get(s, 0)]


def x_of(state: ArkhamState, data_: Payload, investigator_id: object) -> dict[str, int]:
    """The X of each symbol that wants one, from the form: refused when one is missing."""
    values: dict[str, int] = {}
    for symbol in wants_x(state, investigator_id):
        if data_.get(f"x_{symbol}") is None:
            raise CommandError(
                _("Set X for the %(token)s before drawing.") % {"token": data.TOKEN_LABELS[symbol]},
                f"x_{symbol}",
            )
        values[symbol] = need_int(data_, f"x_{symbol}")
    return values


def test_effects(state: ArkhamState, test: Test) -> dict[str, chaos.Effect]:
    """The effects in force in a test, with its X folded in."""
    try:
        return chaos.with_x(effects_for(state, test["investigator"]), test.get("x", {}))
    except chaos.ChaosError as error:
        raise CommandError(_("Set X for each symbol that needs it before drawing."), "x") from error


def reveal(
    state: ArkhamState,
    payload: Payload,
    new_test: bool,
    automatic: bool,
    complete: bool = True,
    empty: bool = False,
    counted: bool = True,
) -> None:
    """Reveal the payload's tokens into a new or the open test. `automatic` (a server draw) also
    checks that the chain follows the rules: every token but the last reveals another, and the
    last one does not (unless `complete` is off, while the chain is being drawn). `empty`
    starts a test with no token yet (tokens drawn at once wait to be chosen); `counted` off
    for a chosen token, counted in the statistics when it was drawn."""
    tokens = payload.get("tokens")
    if not isinstance(tokens, list) or not (0 if empty else 1) <= len(tokens) <= 60:
        raise CommandError(_("A draw needs at least one token."), "tokens")
    if new_test:
        close_test(state)
        who = need_opt_int(payload, "investigator")
        if who is not None:
            investigator(state, payload)
        test: Test = {
            "id": next_id(state),
            "investigator": who,
            "who": name_of(state, who),
            "scenario": state.get("scenario") or "",
            "tokens": [],
            "open": True,
            "physical": not automatic,
            "total": 0,
            "auto_fail": False,
            "auto_succeed": False,
        }
        xs = payload.get("x") or {}
        if not isinstance(xs, dict) or not all(
            s in chaos.SYMBOLS and isinstance(v, int) and 0 <= v <= chaos.MAX_X
            for s, v in xs.items()
        ):
            raise CommandError(_("X must be a whole number from 0 to 99."), "x")
        if xs:
            test["x"] = dict(xs)
        store_outcome(test)
        state.setdefault("draws", []).append(test)
        del state["draws"][:-MAX_DRAWS]
        state["stats"]["tests"] += 1
    else:
        going_on = open_test(state)
        if going_on is None:
            raise CommandError(_("No test is going on: draw to start one."), "tokens")
        test = going_on
        if not automatic:
            test["physical"] = True
    effects = test_effects(state, test)
    if test.get("offered"):
        raise CommandError(_("Choose one of the tokens drawn first."), "tokens")
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
        revealed = chaos.reveal(token, effects)
        entry: RevealedToken = {
            "token": token,
            "modifier": revealed.modifier,
            "again": revealed.again,
            "succeed": revealed.succeed,
            "auto": automatic and index > 0,  # drawn because the one before said so
        }
        if revealed.again and revealed.more != 1:
            entry["more"] = revealed.more
        if revealed.others != 1:
            entry["others"] = revealed.others
        if revealed.harder:
            entry["harder"] = revealed.harder
        test["tokens"].append(entry)
        store_outcome(test)
        if counted:
            state["stats"]["tokens"][token] = state["stats"]["tokens"].get(token, 0) + 1
        if automatic and index < len(tokens) - 1 and not wants_another(state, test):
            raise CommandError(_("That draw does not follow the chaos bag's rules."), "tokens")
    if automatic and complete and wants_another(state, test):
        raise CommandError(_("That draw stops before the chaos bag's rules say."), "tokens")


def draw_chain(
    state: ArkhamState,
    investigator_id: object,
    new_test: bool,
    rng: random.Random,
    xs: dict[str, int] | None = None,
) -> list:
    """Draw at random, then keep drawing while the engine's chain rule says reveal another
    (bless, curse, frost, a symbol marked so). Returns the tokens drawn."""
    test = open_test(state)
    if xs is None:
        xs = test.get("x", {}) if test and not new_test else {}
    effects = chaos.with_x(effects_for(state, investigator_id), xs)
    if new_test:
        bag, before = resting_bag(state), []  # the test going on ends first
        if not bag:
            raise CommandError(_("The bag is empty: put tokens in it before drawing."), "tokens")
    else:
        if test and test.get("offered"):
            raise CommandError(_("Choose one of the tokens drawn first."), "tokens")
        bag, before = drawable(state), reveals_of(test) if test else []
        if not bag:
            raise CommandError(
                _("Every token in the bag is already out: press Done to end the test."), "tokens"
            )
    return chaos.draw_chain(bag, effects, rng, before)


# The end of a test


def close_test(state: ArkhamState) -> None:
    test = open_test(state)
    if test is None:
        return
    return_to_pool(state, test)
    test.pop("offered", None)
    test["open"] = False
