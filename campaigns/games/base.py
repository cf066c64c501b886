"""The shape every game has, and the commands every campaign shares (rename, archive)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.commands import Command, Payload, State, need_bool, need_str, registry


class Later:
    """A part of a page's context worked out when a template first reads it, once: the answer
    to a change draws a few regions, and most of what the whole page shows (the odds, the
    investigators to pick from) is then never read. Reads as the value it stands for."""

    __slots__ = ("_make", "_value")
    _value: Any

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make

    @property
    def value(self) -> Any:
        try:
            return self._value
        except AttributeError:
            self._value = self._make()
            return self._value

    def __getitem__(self, key: Any) -> Any:
        return self.value[key]

    def __iter__(self):
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __contains__(self, item: Any) -> bool:
        return item in self.value

    def __eq__(self, other: object) -> bool:
        return self.value == (other.value if isinstance(other, Later) else other)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Page:
    """A page of the game's own beside the table page (a chaos bag, a score chart…)."""

    label: Any  # a lazy translated string
    template: str
    # The GET parameters the page reads (Viewing.query): a page a stream pushes is drawn with
    # these only (campaigns/views/live.py), so an address with others makes no drawing of its own.
    query: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Viewing:
    """What a game's pages may know of the request that shows them, as plain values: the view
    reads the request, the game's context reads only this."""

    page: str = ""  # the game's own page shown ("" for the table page)
    acted: str = ""  # the command this answer follows (refused or not), when it follows one
    acted_in: str = ""  # the region of the form that sent that command
    live: bool = False  # a live refresh: another phone's change, not this phone's
    query: Mapping[str, str] = field(default_factory=dict)  # the page's GET parameters


@dataclass(frozen=True)
class Game:
    key: str
    name: Any  # a lazy translated string
    blurb: Any
    setup_form: type[forms.Form]
    initial_state: Callable[[dict[str, Any]], State]
    commands: dict[str, Command]
    template: str
    # Extra context for the game's templates: context(campaign, state, viewing).
    context: Callable[[Any, State, Viewing], dict[str, Any]] = field(default=lambda c, s, v: {})
    # The table display's part for this game (the context is the table page's), and whether a
    # campaign in this state has anything to show there: without, no link is offered.
    display: str = "campaigns/display-trackers.html"
    displays: Callable[[State], bool] = field(default=lambda s: True)
    # More pages, by URL slug: /c/<pk>/p/<slug>/.
    pages: dict[str, Page] = field(default_factory=dict)
    # The game's own CSS (a static path), loaded only on its pages.
    stylesheet: str = ""
    # The GET parameters the table page reads (as Page.query).
    query: frozenset[str] = frozenset()

    def template_for(self, page: str) -> str:
        return self.pages[page].template if page in self.pages else self.template

    def query_for(self, page: str) -> frozenset[str]:
        """The GET parameters a page of the game reads ("" the table page)."""
        if not page:
            return self.query
        return self.pages[page].query if page in self.pages else frozenset()

    @property
    def needs_connection(self) -> str:
        """The commands a phone never keeps to send later, space-separated, for the page
        (`data-needs-connection`, read by static/js/offline.js)."""
        return " ".join(sorted(name for name, c in self.commands.items() if c.needs_connection))


class RenameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)


class ArchiveForm(forms.Form):
    archived = forms.BooleanField(
        label=gettext_lazy("Archived"), required=False, widget=forms.HiddenInput
    )


def apply_rename(state: State, payload: Payload) -> None:
    state["name"] = need_str(payload, "name", 80).strip()


def apply_archive(state: State, payload: Payload) -> None:
    state["archived"] = need_bool(payload, "archived")


def describe_archive(payload: Payload) -> str:
    return _("Archived the campaign") if payload.get("archived") else _("Brought the campaign back")


META_COMMANDS = (
    Command(
        "campaign.rename",
        RenameForm,
        apply_rename,
        lambda p: _("Renamed the campaign to “%(name)s”") % {"name": p.get("name")},
        stale_check=True,
        regions=("campaign-title",),
    ),
    Command(
        "campaign.archive",
        ArchiveForm,
        apply_archive,
        describe_archive,
        roles=frozenset({"owner"}),
        regions=("campaign-title",),
    ),
)


def own_game(key: str, features: Iterable[Any], table: str = "table", **fields: Any) -> Game:
    """A game with its own pages (templates/games/<key>/<table>.html and display.html), its
    stylesheet (css/<key>.css) and the commands of its feature modules (their COMMANDS) beside
    the meta commands, in the features' order."""
    return Game(
        key=key,
        template=f"games/{key}/{table}.html",
        display=f"games/{key}/display.html",
        stylesheet=f"css/{key}.css",
        commands=registry(META_COMMANDS, *(feature.COMMANDS for feature in features)),
        **fields,
    )
