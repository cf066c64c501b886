"""A skill test's commands: drawing from the chaos bag (the chain of reveals and X are
``reveals``'), revealing another, drawing several tokens at once to choose one, recording a
token drawn by hand, ending the test.

Rules: ``shared/spec/rules.md`` §1b (lines 94-105). In the state, ``draws`` holds the last 20
tests, the last one maybe ``open``; its ``tokens`` are the revealed ones with what each did,
``x`` the X the group set, ``offered`` the tokens drawn at once and waiting to be chosen and
``set_aside`` the ones not chosen. No order of the bag is ever stored: a draw is decided in
``resolve``, at draw time."""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, Redraws, need_choice, need_int
from campaigns.engines import chaos
from campaigns.games.arkham.bag import TokenForm, drawable, open_test
from campaigns.games.arkham.bless_curse import pool_after, resting_bag
from campaigns.games.arkham.catalogue import reader_name
from campaigns.games.arkham.common import DRAW_REGIONS, XForm, name_of, need_token, token_words
from campaigns.games.arkham.reveals import close_test, draw_chain, reveal, x_of
from campaigns.games.arkham.sealing import seal_after
from campaigns.games.arkham.state import ArkhamState, Test

MAX_SEVERAL = 5  # tokens drawn at once to choose from


# A test: the commands


def draw_several(state: ArkhamState, count: int, rng: random.Random) -> list[str]:
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


def the_test_shown(state: ArkhamState, data_: Payload) -> Test:
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


def resolve_draw(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    who = state.get("active")
    xs = x_of(state, data_, who)
    payload: Payload = {"investigator": who, "who": name_of(state, who)}
    if xs:
        payload["x"] = xs
    several = need_int(data_, "several") if data_.get("several") else 1
    if several > 1:
        payload["offered"] = draw_several(state, several, rng)
    else:
        payload["tokens"] = draw_chain(state, who, True, rng, xs)
    return payload


def apply_draw(state: ArkhamState, payload: Payload) -> None:
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


def resolve_choose(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    test = the_test_shown(state, data_)
    return {"test": test["id"], "pick": data_["pick"], "who": test["who"]}


def apply_choose(state: ArkhamState, payload: Payload) -> None:
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
            "who": reader_name(p["who"]),
        }
    return _("Drew %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def resolve_another(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    who = the_test_shown(state, data_)["investigator"]
    return {"who": name_of(state, who), "tokens": draw_chain(state, who, False, rng)}


def apply_another(state: ArkhamState, payload: Payload) -> None:
    reveal(state, payload, False, True)


def describe_another(p: Payload) -> str:
    return _("Revealed another: %(tokens)s") % {"tokens": token_words(p.get("tokens"))}


def resolve_done(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    the_test_shown(state, data_)
    return {}


def apply_done(state: ArkhamState, payload: Payload) -> None:
    if open_test(state) is None:
        raise CommandError(_("No test is going on."), "tokens")
    close_test(state)


def resolve_record(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
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


def apply_record(state: ArkhamState, payload: Payload) -> None:
    token = need_token(payload)
    into = need_choice(payload, "into", ("new", "same"))
    reveal(state, {**payload, "tokens": [token]}, into == "new", False)


def describe_record(p: Payload) -> str:
    return _("Recorded a drawn %(token)s") % {"token": token_words([p.get("token")])}


def after_test(payload: Payload | None, state: ArkhamState | None) -> tuple[str, ...]:
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
A_TEST: Redraws[ArkhamState] = {
    "regions": DRAW_REGIONS,
    "regions_after": after_test,
    "needs_connection": True,
}

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
        gettext_lazy("Ended the test: tokens returned"),
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
