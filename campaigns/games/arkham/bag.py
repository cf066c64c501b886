"""The chaos bag: what is in it, putting tokens in and out, who it tests for (drawing a test's
tokens is ``draw``, the chain of reveals ``reveals``, sealing and releasing ``sealing``, bless
and curse ``bless_curse``, frost ``frost``).

In the state, ``bag`` counts the tokens of the chaos bag, the ones revealed in the open test
included (they go back at the end of the test); ``sealed`` counts the tokens sealed on cards;
``draws`` holds the last 20 tests, the last one maybe ``open`` (the test going on); ``stats``
counts the tests and every token revealed, all time; ``active`` is the investigator the bag
tests for. No order of the bag is ever stored: a draw is decided in ``resolve``, at draw time.
"""

from __future__ import annotations

import random

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, CommandError, Payload, need_int, said_int
from campaigns.games.arkham import data
from campaigns.games.arkham.catalogue import reader_name
from campaigns.games.arkham.common import (
    BAG_REGIONS,
    EFFECT_REGIONS,
    PEOPLE_REGIONS,
    TokenField,
    investigator,
    name_of,
    need_token,
    token_words,
)
from campaigns.games.arkham.state import ArkhamState, Test

MAX_DRAWS = 20


# Reading the bag


def open_test(state: ArkhamState) -> Test | None:
    draws = state.get("draws", [])
    return draws[-1] if draws and draws[-1].get("open") else None


def out_of_bag(test: Test) -> list[str]:
    """Every token the test took out: revealed, offered to choose from, set aside."""
    return (
        [e["token"] for e in test["tokens"]] + test.get("offered", []) + test.get("set_aside", [])
    )


def revealed_counts(state: ArkhamState) -> dict[str, int]:
    counts: dict[str, int] = {}
    test = open_test(state)
    for token in out_of_bag(test) if test else []:
        counts[token] = counts.get(token, 0) + 1
    return counts


def drawable(state: ArkhamState) -> dict[str, int]:
    """The tokens a hand could pull out now: the bag less the ones revealed in the open test."""
    out = revealed_counts(state)
    return {t: n - out.get(t, 0) for t, n in state["bag"].items() if n - out.get(t, 0) > 0}


# Changing what is in the bag


def change_bag(state: ArkhamState, token: str, delta: int, field: str = "count") -> None:
    """Put tokens in or take them out: never more than the game provides of a token, the
    sealed ones counted, and never one that is out in the test going on (refused next to
    `field`)."""
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
        raise CommandError(message % {"n": limit, "token": label}, field)
    if count < revealed_counts(state).get(token, 0) or count < 0:
        raise CommandError(
            _("There is no %(token)s token left in the bag to take out.") % {"token": label},
            field,
        )
    if count:
        bag[token] = count
    else:
        bag.pop(token, None)


def apply_bag_change(state: ArkhamState, payload: Payload) -> None:
    change_bag(state, need_token(payload), need_int(payload, "delta", -99, 99))


def describe_bag_change(p: Payload) -> str:
    template = (
        _("Put %(n)d %(token)s in the bag")
        if said_int(p, "delta") > 0
        else _("Took %(n)d %(token)s out of the bag")
    )
    return template % {"n": abs(said_int(p, "delta")), "token": token_words([p.get("token")])}


def apply_bag_set(state: ArkhamState, payload: Payload) -> None:
    token = need_token(payload)
    count = need_int(payload, "count", 0, 99)
    change_bag(state, token, count - state["bag"].get(token, 0))


# Who the bag tests for


def resolve_active(state: ArkhamState, data_: Payload, rng: random.Random) -> Payload:
    ident = data_.get("investigator") or None
    return {"investigator": ident, "name": name_of(state, ident) if ident else ""}


def apply_active(state: ArkhamState, payload: Payload) -> None:
    if payload.get("investigator") in (None, 0):
        state["active"] = None
        return
    found = investigator(state, payload)
    state["active"] = found["id"]


# What the phones post


class TokenForm(forms.Form):
    token = TokenField()


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
        "bag.active",
        ActiveForm,
        apply_active,
        lambda p: (
            _("%(name)s is the investigator testing") % {"name": reader_name(p.get("name"))}
            if p.get("name")
            else _("No investigator chosen for tests")
        ),
        resolve_active,
        regions=(*PEOPLE_REGIONS, *EFFECT_REGIONS),
    ),
)
