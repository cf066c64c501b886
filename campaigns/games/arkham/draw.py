"""A skill test's draw: revealing tokens from the chaos bag by the chain rule (bless, curse and
frost, a symbol that reveals more), X set when the test starts for the effects that add X,
drawing several tokens at once to choose one, recording a token drawn by hand, ending the test.

Rules: ``shared/spec/rules.md`` §1b (lines 94-105). In the state, ``draws`` holds the last 20
tests, the last one maybe ``open``; its ``tokens`` are the revealed ones with what each did,
``x`` the X the group set, ``offered`` the tokens drawn at once and waiting to be chosen and
``set_aside`` the ones not chosen. No order of the bag is ever stored: a draw is decided in
``resolve``, at draw time."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, State, need_choice, need_int, next_id
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.bag import (
    MAX_DRAWS,
    TokenForm,
    close_test,
    drawable,
    open_test,
    out_of_bag,
    resting_bag,
)
from campaigns.games.arkham.common import (
    DRAW_REGIONS,
    XForm,
    effects_for,
    investigator,
    name_of,
    need_token,
    token_words,
)
from campaigns.games.arkham.state import RevealedToken, Test

MAX_SEVERAL = 5  # tokens drawn at once to choose from


# A test: revealing tokens


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
    for index in outcome.second_frosts:
        test["tokens"][index]["second_frost"] = True
    test["total"] = outcome.total
    test["auto_fail"] = outcome.auto_fail
    test["auto_succeed"] = outcome.auto_succeed
    if outcome.harder:
        test["harder"] = outcome.harder


def wants_another(state: State, test: Test) -> bool:
    """Whether the rules make the test reveal another token now (and one is left to reveal)."""
    return chaos.chain(reveals_of(test)).goes_on and bool(drawable(state))


# X: a number the group sets when the test starts, for the symbols whose effect is −X or +X


def wants_x(state: State, investigator_id: Any) -> list[str]:
    """The symbols in the bag whose effect for this test adds X times something."""
    effects = effects_for(state, investigator_id)
    return [s for s in chaos.SYMBOLS if effects.get(s, {}).get("per_x") and state["bag"].get(s, 0)]


def x_of(state: State, data_: Payload, investigator_id: Any) -> dict[str, int]:
    """The X of each symbol that wants one, from the form: refused when one is missing."""
    values = {}
    for symbol in wants_x(state, investigator_id):
        value = data_.get(f"x_{symbol}")
        if value is None:
            raise CommandError(
                _("Set X for the %(token)s before drawing.") % {"token": data.TOKEN_LABELS[symbol]},
                f"x_{symbol}",
            )
        values[symbol] = value
    return values


def test_effects(state: State, test: Test) -> dict[str, dict[str, Any]]:
    """The effects in force in a test, with its X folded in."""
    try:
        return chaos.with_x(effects_for(state, test["investigator"]), test.get("x", {}))
    except chaos.ChaosError as error:
        raise CommandError(_("Set X for each symbol that needs it before drawing."), "x") from error


def reveal(
    state: State,
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
        who = payload.get("investigator")
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
    state: State,
    investigator_id: Any,
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


def draw_several(state: State, count: int, rng: random.Random) -> list[str]:
    """Draw ``count`` tokens at once, to choose one (a card says so): no chain yet."""
    bag = resting_bag(state)
    if sum(bag.values()) < count:
        raise CommandError(_("The bag holds fewer than %(n)d tokens.") % {"n": count}, "several")
    drawn = []
    for _n in range(count):
        token = chaos.draw(bag, rng)
        bag[token] -= 1
        drawn.append(token)
    return drawn


def the_test_shown(state: State, data_: Payload) -> Test:
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


def resolve_draw(state: State, data_: Payload, rng: random.Random) -> Payload:
    who = state.get("active")
    xs = x_of(state, data_, who)
    payload: Payload = {"investigator": who, "who": name_of(state, who)}
    if xs:
        payload["x"] = xs
    several = data_.get("several") or 1
    if several > 1:
        payload["offered"] = draw_several(state, several, rng)
    else:
        payload["tokens"] = draw_chain(state, who, True, rng, xs)
    return payload


def apply_draw(state: State, payload: Payload) -> None:
    offered = payload.get("offered")
    if offered is None:
        reveal(state, payload, True, True)
        return
    if not isinstance(offered, list) or not 2 <= len(offered) <= MAX_SEVERAL:
        raise CommandError(_("A draw needs at least one token."), "tokens")
    reveal(state, {**payload, "tokens": []}, True, True, complete=False, empty=True)
    test = open_test(state)
    assert test is not None
    for token in offered:
        if token not in chaos.TOKENS or drawable(state).get(token, 0) < 1:
            raise CommandError(_("That draw does not follow the chaos bag's rules."), "tokens")
        test.setdefault("offered", []).append(token)
        state["stats"]["tokens"][token] = state["stats"]["tokens"].get(token, 0) + 1


def resolve_choose(state: State, data_: Payload, rng: random.Random) -> Payload:
    test = the_test_shown(state, data_)
    return {"test": test["id"], "pick": data_["pick"], "who": test["who"]}


def apply_choose(state: State, payload: Payload) -> None:
    """The token chosen of the ones drawn at once resolves; the others are set aside."""
    test = open_test(state)
    offered = test.get("offered") if test else None
    if test is None or not offered:
        raise CommandError(_("No tokens are waiting to be chosen."), "pick")
    pick = need_int(payload, "pick", 0, len(offered) - 1)
    token = offered[pick]
    test["set_aside"] = test.get("set_aside", []) + offered[:pick] + offered[pick + 1 :]
    del test["offered"]
    reveal(state, {"tokens": [token]}, False, False, counted=False)


def describe_choose(p: Payload) -> str:
    return _("Chose one of the tokens drawn at once")


def describe_draw(p: Payload) -> str:
    if p.get("offered"):
        return _("Drew %(tokens)s at once, to choose one") % {
            "tokens": token_words(p.get("offered"))
        }
    if p.get("who"):
        return _("Drew %(tokens)s for %(who)s") % {
            "tokens": token_words(p.get("tokens")),
            "who": p["who"],
        }
    return _("Drew %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def resolve_another(state: State, data_: Payload, rng: random.Random) -> Payload:
    who = the_test_shown(state, data_)["investigator"]
    return {"who": name_of(state, who), "tokens": draw_chain(state, who, False, rng)}


def apply_another(state: State, payload: Payload) -> None:
    reveal(state, payload, False, True)


def describe_another(p: Payload) -> str:
    return _("Revealed another: %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def resolve_done(state: State, data_: Payload, rng: random.Random) -> Payload:
    the_test_shown(state, data_)
    return {}


def apply_done(state: State, payload: Payload) -> None:
    if open_test(state) is None:
        raise CommandError(_("No test is going on."), "tokens")
    close_test(state)


def resolve_record(state: State, data_: Payload, rng: random.Random) -> Payload:
    into = data_.get("into") or "new"
    if into == "same":
        the_test_shown(state, data_)
    test = open_test(state)
    who = state.get("active") if into == "new" else test["investigator"] if test else None
    payload = {
        "token": data_["token"],
        "into": into,
        "investigator": who,
        "who": name_of(state, who),
    }
    if into == "new" and (xs := x_of(state, data_, who)):
        payload["x"] = xs
    return payload


def apply_record(state: State, payload: Payload) -> None:
    token = need_token(payload)
    into = need_choice(payload, "into", ("new", "same"))
    reveal(state, {**payload, "tokens": [token]}, into == "new", False)


def describe_record(p: Payload) -> str:
    return _("Recorded a drawn %(token)s") % {"token": token_words([p.get("token")])}


def pool_after(payload: Payload | None, state: State | None) -> tuple[str, ...]:
    """What bless and curse change (see ``bag.close_test``): the odds read the bag as the next
    test finds it, which a test changes only by taking bless or curse out; the pool's counts and
    its −, when this test or the one it ended took one out (the others go back in the bag)."""
    if payload is None or state is None:
        return ("bag-pool", "bag-odds")
    tests = state.get("draws", [])
    now = set(out_of_bag(tests[-1])) if tests else set()
    ended = set(out_of_bag(tests[-2])) if len(tests) > 1 else set()
    if now & set(data.POOL_TOKENS):
        return ("bag-pool", "bag-odds")
    return ("bag-pool",) if ended & set(data.POOL_TOKENS) else ()


def seal_after(payload: Payload | None, state: State | None) -> tuple[str, ...]:
    """The tokens one can seal are those not all out in the test going on: a test changes them
    only when it takes out the last one of a token, or the test it ended had (bless and curse
    leave the bag when a test ends: those always)."""
    if payload is None or state is None:
        return ("bag-seal",)
    bag = state["bag"]
    for test in state.get("draws", [])[-2:]:
        out = Counter(out_of_bag(test))
        if any(t in data.POOL_TOKENS or n >= bag.get(t, 0) for t, n in out.items()):
            return ("bag-seal",)
    return ()


def after_test(payload: Payload | None, state: State | None) -> tuple[str, ...]:
    return (*pool_after(payload, state), *seal_after(payload, state))


# What the phones post


class DrawForm(XForm):
    """A draw starting a test: X where the effects ask for it, and how many tokens at once."""

    several = forms.IntegerField(
        label=gettext_lazy("Tokens at once, to choose one"),
        min_value=1,
        max_value=MAX_SEVERAL,
        required=False,
    )


class ChooseForm(forms.Form):
    test = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    pick = forms.IntegerField(min_value=0, max_value=MAX_SEVERAL - 1, widget=forms.HiddenInput)


class EmptyForm(forms.Form):
    """A tap with nothing to say but which button (draw, reveal another, done)."""


class TestForm(forms.Form):
    """Reveal another or done: the test the phone showed, so a tap meant for a test that has
    ended meanwhile does not land in a new one."""

    test = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)


class RecordForm(TokenForm, XForm):
    test = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    into = forms.ChoiceField(
        label=gettext_lazy("This token"),
        choices=[
            ("same", gettext_lazy("belongs to the test going on")),
            ("new", gettext_lazy("starts a new test")),
        ],
        required=False,
    )


# Each step of a test redraws it and the odds, and meets the bag as it is now (the connection).
A_TEST: dict[str, Any] = dict(regions=DRAW_REGIONS, regions_after=after_test, needs_connection=True)

COMMANDS = (
    # A draw made from a screen older than another phone's draw is refused: it would end it.
    Command(
        "bag.draw",
        DrawForm,
        apply_draw,
        describe_draw,
        resolve_draw,
        stale_check=True,
        random_outcome=True,
        **A_TEST,
    ),
    Command(
        "bag.choose",
        ChooseForm,
        apply_choose,
        describe_choose,
        resolve_choose,
        **A_TEST,
    ),
    Command(
        "bag.another",
        TestForm,
        apply_another,
        describe_another,
        resolve_another,
        random_outcome=True,
        **A_TEST,
    ),
    Command(
        "bag.done",
        TestForm,
        apply_done,
        lambda p: _("Ended the test: tokens returned"),
        resolve_done,
        **A_TEST,
    ),
    Command(
        "bag.record",
        RecordForm,
        apply_record,
        describe_record,
        resolve_record,
        **A_TEST,
    ),
)
