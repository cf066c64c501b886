"""Sealing a token on a card and releasing it (``shared/spec/rules.md`` §1b): a sealed token
leaves the bag (``sealed`` in the state counts them) and still counts against the game's limit
of that token (``bag.change_bag``); only a token left in the bag, not one out in the test going
on, can be sealed. At a scenario's end the cards that sealed them leave play: every sealed
token goes back into the bag (bless and curse leave it instead: ``bless_curse``).
"""

from __future__ import annotations

from collections import Counter

from django import forms
from django.utils.translation import gettext as _

from campaigns.commands import Command, CommandError, Payload
from campaigns.games.arkham import data
from campaigns.games.arkham.bag import TokenForm, change_bag, drawable, out_of_bag
from campaigns.games.arkham.common import BAG_REGIONS, TokenField, need_token, token_words
from campaigns.games.arkham.state import ArkhamState


def apply_seal(state: ArkhamState, payload: Payload) -> None:
    token = need_token(payload)
    if drawable(state).get(token, 0) < 1:
        raise CommandError(
            _("There is no %(token)s token in the bag to seal.")
            % {"token": data.TOKEN_LABELS[token]},
            "token",
        )
    change_bag(state, token, -1)
    state["sealed"][token] = state["sealed"].get(token, 0) + 1


def apply_release(state: ArkhamState, payload: Payload) -> None:
    token = need_token(payload)
    if state["sealed"].get(token, 0) < 1:
        raise CommandError(
            _("No %(token)s token is sealed.") % {"token": data.TOKEN_LABELS[token]}, "token"
        )
    state["sealed"][token] -= 1
    if not state["sealed"][token]:
        del state["sealed"][token]
    state["bag"][token] = state["bag"].get(token, 0) + 1


def release_all(state: ArkhamState) -> None:
    """At a scenario's end every sealed token goes back into the bag (the cards that sealed
    them leave play)."""
    for token, count in state["sealed"].items():
        state["bag"][token] = state["bag"].get(token, 0) + count
    state["sealed"] = {}


def seal_after(payload: Payload | None, state: ArkhamState | None) -> tuple[str, ...]:
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


# What the phones post


class ReleaseForm(forms.Form):
    """Releasing a sealed token: the token is the one its row shows."""

    token = TokenField(widget=forms.HiddenInput)


def describe_seal(p: Payload) -> str:
    return _("Sealed a %(token)s token") % {"token": token_words([p.get("token")])}


def describe_release(p: Payload) -> str:
    return _("Released a sealed %(token)s token") % {"token": token_words([p.get("token")])}


COMMANDS = (
    Command("bag.seal", TokenForm, apply_seal, describe_seal, regions=BAG_REGIONS),
    Command("bag.release", ReleaseForm, apply_release, describe_release, regions=BAG_REGIONS),
)
