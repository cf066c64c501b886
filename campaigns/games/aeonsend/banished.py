"""Banished cards: banished by hand or by the supply upgrade, searched, and restored.

State: ``banished`` ([{id, text, game, reason, source: "" | "upgrade", restored,
restored_reason}]).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import (
    Command,
    CommandError,
    Payload,
    need_str,
    next_id,
)
from campaigns.fields import TextField
from campaigns.games.aeonsend import data
from campaigns.games.aeonsend.common import (
    ItemForm,
    copy_named,
    find,
    need_opt_game,
    optional_game,
    with_info,
)
from campaigns.games.aeonsend.state import AeonsEndState

SEARCH_LENGTH = 60  # the longest search the banished cards take


def banish(
    state: AeonsEndState, text: str, game: int | None, reason: str, source: str = ""
) -> None:
    if len(state["banished"]) >= data.MAX_ROWS:
        raise CommandError(_("Too many items."), "text")
    state["banished"].append(
        {
            "id": next_id(state),
            "text": text,
            "game": game,
            "reason": reason,
            "source": source,
            "restored": False,
            "restored_reason": "",
        }
    )


class BanishForm(forms.Form):
    text = TextField(
        label=gettext_lazy("Card (name or number)"),
        max_length=data.CARD_LENGTH,
        # The names the campaign knows, offered as the group types (a datalist on the page).
        widget=forms.TextInput(attrs={"list": "ae-card-names", "autocomplete": "off"}),
    )
    game = optional_game()
    reason = TextField(label=gettext_lazy("Why"), max_length=200, required=False)


def apply_banish(state: AeonsEndState, payload: Payload) -> None:
    text = need_str(payload, "text", data.CARD_LENGTH).strip()
    banish(
        state,
        text,
        need_opt_game(payload),
        need_str(payload, "reason", 200, blank=True).strip(),
    )


def describe_banish(p: Payload) -> str:
    return _("Banished “%(text)s”") % {"text": p.get("text")}


class RestoreForm(ItemForm):
    reason = TextField(
        label=gettext_lazy("Why (optional)"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Why (optional)")}),
    )


def apply_restore(state: AeonsEndState, payload: Payload) -> None:
    item = find(state["banished"], payload)
    if item["restored"]:
        raise CommandError(_("“%(text)s” is already restored.") % {"text": item["text"]}, "item")
    item["restored"] = True
    item["restored_reason"] = need_str(payload, "reason", 200, blank=True).strip()


def add_banished_name(state: AeonsEndState, payload: Payload) -> None:
    copy_named(state["banished"], payload, "text", "text_was")


def describe_restore(p: Payload) -> str:
    return _("Restored the banished card “%(text)s”") % {"text": p.get("text_was")}


COMMANDS = (
    Command("ae.banish", BanishForm, apply_banish, describe_banish, regions=("supply",)),
    Command(
        "ae.restore",
        RestoreForm,
        apply_restore,
        describe_restore,
        resolve=with_info(add_banished_name),
        regions=("supply",),
    ),
)


# What the pages show


class SearchForm(forms.Form):
    """The banished cards' search, a GET form (`?q=`): what it finds is `banished_view`'s."""

    q = TextField(
        label=gettext_lazy("Find a banished card"),
        max_length=SEARCH_LENGTH,
        required=False,
        widget=forms.SearchInput(attrs={"placeholder": gettext_lazy("Find a banished card")}),
    )


def banished_view(state: AeonsEndState, query: str) -> dict[str, object]:
    wanted = query.casefold()
    items = [
        {**item, "from_upgrade": item["source"] == "upgrade"}
        for item in reversed(state["banished"])
        if not wanted or wanted in item["text"].casefold() or wanted in item["reason"].casefold()
    ]
    names: dict[str, str] = {}
    for name in [
        *(item["text"] for item in state["banished"]),
        *state["supply"],
        *(upgrade["presented"] if (upgrade := state["upgrade"]) else []),
        *(card["name"] for card in state["outside"]["cards"]),
    ]:
        names.setdefault(name.casefold(), name)
    return {
        "q": query,
        "form": SearchForm(initial={"q": query}, auto_id=False),
        "banished": [item for item in items if not item["restored"]],
        "restored": [item for item in items if item["restored"]],
        "total": sum(1 for item in state["banished"] if not item["restored"]),
        "suggestions": sorted(names.values(), key=str.casefold),
    }
