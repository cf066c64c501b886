"""The shape every game has, and the commands every campaign shares (rename, archive)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from campaigns.commands import Command, Named, Payload, need_bool, need_str, registry
from campaigns.fields import TextField

if TYPE_CHECKING:
    from campaigns.models import Campaign


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


@dataclass(frozen=True)
class Page:
    """A page of the game's own beside the table page (a chaos bag, a score chart…)."""

    label: StrOrPromise
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
    # What that command posted, in the answer to this phone's own tap (empty otherwise): a form
    # may keep what was chosen in it (Aeon's End's target of damage).
    posted: Mapping[str, str] = field(default_factory=dict)


def no_context(campaign: object, state: object, viewing: Viewing) -> dict[str, object]:
    return {}


def always(state: object) -> bool:
    return True


@dataclass(frozen=True)
class Game[S]:
    """A game: `S` is its state (a TypedDict), which its commands and context read."""

    key: str
    name: StrOrPromise
    blurb: StrOrPromise
    setup_form: type[forms.Form]
    # The state before any event, from the set-up form's cleaned data (or an imported file's).
    initial_state: Callable[[Payload], S]
    commands: dict[str, Command[S]]
    template: str
    # Extra context for the game's templates: context(campaign, state, viewing).
    context: Callable[[Campaign, S, Viewing], dict[str, object]] = no_context
    # The table display's part for this game (the context is the table page's), and whether a
    # campaign in this state has anything to show there: without, no link is offered.
    display: str = "campaigns/display-trackers.html"
    displays: Callable[[S], bool] = always
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
    name = TextField(label=gettext_lazy("Name"), max_length=80)


class ArchiveForm(forms.Form):
    archived = forms.BooleanField(
        label=gettext_lazy("Archived"), required=False, widget=forms.HiddenInput
    )


def apply_rename(state: Named, payload: Payload) -> None:
    state["name"] = need_str(payload, "name", 80).strip()


def apply_archive(state: Named, payload: Payload) -> None:
    state["archived"] = need_bool(payload, "archived")


def describe_archive(payload: Payload) -> str:
    return _("Archived the campaign") if payload.get("archived") else _("Brought the campaign back")


META_COMMANDS: tuple[Command[Named], ...] = (
    Command(
        "campaign.rename",
        RenameForm,
        apply_rename,
        gettext_lazy("Renamed the campaign to “%(name)s”"),
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


# A game chosen at run time, by a campaign's `game` (campaigns.games.GAMES, the models).
AnyGame = Game[Any]


class Feature[S](Protocol):
    """A feature module of a game: its commands, over the game's state."""

    @property
    def COMMANDS(self) -> Iterable[Command[S]]: ...


def own_game[S](
    key: str, features: Iterable[Feature[S]], table: str = "table", **fields: Any
) -> Game[S]:
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
