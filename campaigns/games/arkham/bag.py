"""The chaos bag: what is in it, drawing a test's tokens (bless, curse and frost included),
recording a token drawn by hand, putting tokens in and out, sealing and releasing them.

In the state, ``bag`` counts the tokens of the chaos bag, the ones revealed in the open test
included (they go back at the end of the test); ``sealed`` counts the tokens sealed on cards;
``draws`` holds the last 20 tests, the last one maybe ``open`` (the test going on); ``stats``
counts the tests and every token revealed, all time; ``active`` is the investigator the bag
tests for. No order of the bag is ever stored: a draw is decided in ``resolve``, at draw time.
"""

from __future__ import annotations

import random
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, State, need_choice, need_int, next_id
from campaigns.engines import chaos
from campaigns.games.arkham import data
from campaigns.games.arkham.common import (
    BAG_REGIONS,
    EFFECT_REGIONS,
    PEOPLE_REGIONS,
    TokenField,
    effects_for,
    investigator,
    name_of,
    need_token,
    token_words,
)
from campaigns.games.arkham.state import RevealedToken, Test

MAX_DRAWS = 20


# Reading the bag


def open_test(state: State) -> Test | None:
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


# A test: revealing tokens


def reveals_of(test: Test) -> list[chaos.Reveal]:
    """The test's tokens as the engine's chain rule reads them (each as it did when revealed)."""
    return [
        chaos.Reveal(e["token"], e["modifier"], e["again"], e["succeed"]) for e in test["tokens"]
    ]


def store_outcome(test: Test) -> None:
    """The test's outcome from its tokens, by the engine's chain rule."""
    outcome = chaos.chain(reveals_of(test))
    for index in outcome.second_frosts:
        test["tokens"][index]["second_frost"] = True
    test["total"] = outcome.total
    test["auto_fail"] = outcome.auto_fail
    test["auto_succeed"] = outcome.auto_succeed


def wants_another(state: State, test: Test) -> bool:
    """Whether the rules make the test reveal another token now (and one is left to reveal)."""
    return chaos.chain(reveals_of(test)).goes_on and bool(drawable(state))


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
        revealed = chaos.reveal(token, effects)
        entry: RevealedToken = {
            "token": token,
            "modifier": revealed.modifier,
            "again": revealed.again,
            "succeed": revealed.succeed,
            "auto": automatic and index > 0,  # drawn because the one before said so
        }
        test["tokens"].append(entry)
        store_outcome(test)
        state["stats"]["tokens"][token] = state["stats"]["tokens"].get(token, 0) + 1
        if automatic and index < len(tokens) - 1 and not wants_another(state, test):
            raise CommandError(_("That draw does not follow the chaos bag's rules."), "tokens")
    if automatic and complete and wants_another(state, test):
        raise CommandError(_("That draw stops before the chaos bag's rules say."), "tokens")


def draw_chain(state: State, investigator_id: Any, new_test: bool, rng: random.Random) -> list:
    """Draw at random, then keep drawing while the engine's chain rule says reveal another
    (bless, curse, frost, a symbol marked so). Returns the tokens drawn."""
    if new_test:
        bag, before = resting_bag(state), []  # the test going on ends first
        if not bag:
            raise CommandError(_("The bag is empty: put tokens in it before drawing."), "tokens")
    else:
        test = open_test(state)
        bag, before = drawable(state), reveals_of(test) if test else []
        if not bag:
            raise CommandError(
                _("Every token in the bag is already out: press Done to end the test."), "tokens"
            )
    return chaos.draw_chain(bag, effects_for(state, investigator_id), rng, before)


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
    return {
        "investigator": who,
        "who": name_of(state, who),
        "tokens": draw_chain(state, who, True, rng),
    }


def apply_draw(state: State, payload: Payload) -> None:
    reveal(state, payload, True, True)


def describe_draw(p: Payload) -> str:
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
    return {"token": data_["token"], "into": into, "investigator": who, "who": name_of(state, who)}


def apply_record(state: State, payload: Payload) -> None:
    token = need_token(payload)
    into = need_choice(payload, "into", ("new", "same"))
    reveal(state, {**payload, "tokens": [token]}, into == "new", False)


def describe_record(p: Payload) -> str:
    return _("Recorded a drawn %(token)s") % {"token": token_words([p.get("token")])}


# Changing what is in the bag


def change_bag(state: State, token: str, delta: int) -> None:
    """Put tokens in or take them out: never more than the game provides of a token, the
    sealed ones counted, and never one that is out in the test going on."""
    bag = state["bag"]
    count = bag.get(token, 0) + delta
    label = data.TOKEN_LABELS[token]
    limit, sealed = data.TOKEN_LIMITS[token], state["sealed"].get(token, 0)
    if delta > 0 and count + sealed > limit:
        message = (
            _("At most %(n)d %(token)s tokens, sealed ones included.")
            if sealed or token in data.POOL_TOKENS
            else _("At most %(n)d %(token)s tokens.")
        )
        raise CommandError(message % {"n": limit, "token": label}, "count")
    if count < revealed_counts(state).get(token, 0) or count < 0:
        raise CommandError(
            _("There is no %(token)s token left in the bag to take out.") % {"token": label},
            "count",
        )
    if count:
        bag[token] = count
    else:
        bag.pop(token, None)


def apply_bag_change(state: State, payload: Payload) -> None:
    change_bag(state, need_token(payload), need_int(payload, "delta", -99, 99))


def describe_bag_change(p: Payload) -> str:
    template = (
        _("Put %(n)d %(token)s in the bag")
        if p.get("delta", 0) > 0
        else _("Took %(n)d %(token)s out of the bag")
    )
    return template % {"n": abs(p.get("delta", 0)), "token": token_words([p.get("token")])}


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


# Who the bag tests for


def resolve_active(state: State, data_: Payload, rng: random.Random) -> Payload:
    ident = data_.get("investigator") or None
    return {"investigator": ident, "name": name_of(state, ident) if ident else ""}


def apply_active(state: State, payload: Payload) -> None:
    if payload.get("investigator") in (None, 0):
        state["active"] = None
        return
    found = investigator(state, payload)
    state["active"] = found["id"]


# What the phones post


class EmptyForm(forms.Form):
    """A tap with nothing to say but which button (draw, reveal another, done)."""


class TestForm(forms.Form):
    """Reveal another or done: the test the phone showed, so a tap meant for a test that has
    ended meanwhile does not land in a new one."""

    test = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)


class TokenForm(forms.Form):
    token = TokenField()


class RecordForm(TokenForm):
    test = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    into = forms.ChoiceField(
        label=gettext_lazy("This token"),
        choices=[
            ("same", gettext_lazy("belongs to the test going on")),
            ("new", gettext_lazy("starts a new test")),
        ],
        required=False,
    )


class ReleaseForm(forms.Form):
    """Releasing a sealed token: the token is the one its row shows."""

    token = TokenField(widget=forms.HiddenInput)


class BagChangeForm(forms.Form):
    """One more or one fewer of the token a row shows."""

    token = TokenField(widget=forms.HiddenInput)
    delta = forms.IntegerField(
        label=gettext_lazy("Change"), min_value=-99, max_value=99, widget=forms.HiddenInput
    )


class BagSetForm(TokenForm):
    count = forms.IntegerField(label=gettext_lazy("How many"), min_value=0, max_value=99)


class ActiveForm(forms.Form):
    investigator = forms.IntegerField(
        label=gettext_lazy("Investigator testing"), min_value=0, max_value=10**9, required=False
    )


COMMANDS = (
    # A draw starts a new test: from a screen that had not seen the last change (a second
    # phone, a double tap) it is refused rather than replacing the test just drawn.
    Command(
        "bag.draw",
        EmptyForm,
        apply_draw,
        describe_draw,
        resolve_draw,
        stale_check=True,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.another",
        TestForm,
        apply_another,
        describe_another,
        resolve_another,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.done",
        TestForm,
        apply_done,
        lambda p: _("Ended the test: tokens returned"),
        resolve_done,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.record",
        RecordForm,
        apply_record,
        describe_record,
        resolve_record,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.change",
        BagChangeForm,
        apply_bag_change,
        describe_bag_change,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.set",
        BagSetForm,
        apply_bag_set,
        lambda p: (
            _("%(token)s in the bag set to %(n)s")
            % {"token": token_words([p.get("token")]), "n": p.get("count")}
        ),
        stale_check=True,
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.seal",
        TokenForm,
        apply_seal,
        lambda p: _("Sealed a %(token)s token") % {"token": token_words([p.get("token")])},
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.release",
        ReleaseForm,
        apply_release,
        lambda p: _("Released a sealed %(token)s token") % {"token": token_words([p.get("token")])},
        regions=BAG_REGIONS,
    ),
    Command(
        "bag.active",
        ActiveForm,
        apply_active,
        lambda p: (
            _("%(name)s is the investigator testing") % {"name": p.get("name")}
            if p.get("name")
            else _("No investigator chosen for tests")
        ),
        resolve_active,
        regions=(*PEOPLE_REGIONS, *EFFECT_REGIONS),
    ),
)
