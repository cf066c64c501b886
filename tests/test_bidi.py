"""Every text the group typed is isolated for direction, so that a name holding a right-to-left
override (U+202E) cannot reverse the words around it: campaign, member, player, investigator,
tracker and card names, notes, log entries, reasons, on every page of every game.

Each game is played through every one of its commands (the sample posts of
tests/samples.py) with every text the group types starting with U+202E; then every
page is read, and each U+202E must sit in an isolating element (`<bdi>`, an element with `dir`,
one whose class the stylesheet isolates, or a control that is its own paragraph: an option, a
text area) holding that typed text and nothing else, or, inside words the site made (the
history), between U+2068 and U+2069 (first strong isolate … pop directional isolate).
"""

from __future__ import annotations

import copy
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from campaigns.games import GAMES
from campaigns.models import Membership
from campaigns.views.display import display_url
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, client_for, sample_data
from tests.journeys import page_urls, text

RLO = "\u202e"
ISOLATED = re.compile("\u2068[^\u2069]*\u2069")
# What the group types, by field name; a field that refuses the marked text is a choice.
TYPED = {
    "name",
    "player",
    "text",
    "reason",
    "note",
    "notes",
    "label",
    "card",
    "resolution",
    "items",
    "piles",
    "current",
    "add",
    "banish",
}
# Names a later sample post finds a tracker by.
KEPT = {"Short-lived"}
OWN_PARAGRAPH = {"bdi", "option", "textarea", "script", "style"}
# Attributes a browser shows or reads aloud with words around the typed text.
SPOKEN = ("title", "aria-label", "alt", "placeholder")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def isolating_classes() -> set[str]:
    """The classes site.css gives `unicode-bidi: isolate`."""
    css = Path(__file__).resolve().parent.parent.joinpath("static/css/site.css").read_text()
    found: set[str] = set()
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if "unicode-bidi: isolate" in body or "unicode-bidi:isolate" in body:
            found |= {
                s.strip()[1:] for s in selectors.split(",") if re.fullmatch(r"\s*\.[\w-]+\s*", s)
            }
    return found


class Unisolated(HTMLParser):
    """The places where a typed U+202E is not held apart from the words around it."""

    def __init__(self, typed: set[str], classes: set[str]) -> None:
        super().__init__()
        self.typed, self.classes = typed, classes
        self.stack: list[dict] = []
        self.bad: list[str] = []
        self.seen = 0  # typed texts met

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for attribute in SPOKEN:
            said = names.get(attribute) or ""
            self.seen += said.count(RLO)
            if RLO in ISOLATED.sub("", said):
                self.bad.append(f"not isolated in <{tag} {attribute}>: {said!r}")
        if tag in VOID:
            return
        isolating = (
            tag in OWN_PARAGRAPH
            or "dir" in names
            or bool(self.classes & set((names.get("class") or "").split()))
        )
        self.stack.append({"tag": tag, "isolating": isolating, "text": [], "check": False})

    def handle_endtag(self, tag):
        if tag not in (e["tag"] for e in self.stack):
            return
        while self.stack:
            element = self.stack.pop()
            if element["check"]:
                words = ISOLATED.sub("", "".join(element["text"])).strip()
                if words not in self.typed:
                    self.bad.append(f"<{element['tag']}> holds more than the typed text: {words!r}")
            if element["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"].append(data)
        self.seen += data.count(RLO)
        if RLO not in ISOLATED.sub("", data):
            return
        holder = next((e for e in reversed(self.stack) if e["isolating"]), None)
        if holder is None:
            where = " > ".join(e["tag"] for e in self.stack[-4:])
            self.bad.append(f"not isolated in {where}: {data.strip()!r}")
        elif holder["tag"] not in OWN_PARAGRAPH:
            holder["check"] = True


def mark(key: str, value):
    """The value as the group could have typed it, starting with U+202E: each entry of a list
    typed one per line or comma-separated, each name of a list of names."""
    if isinstance(value, list):
        return [mark(key, v) for v in value]
    if not isinstance(value, str) or not value or value in KEPT:
        return value
    if key == "piles":
        return "\n".join(RLO + line for line in value.split("\n"))
    if key == "items":
        return ", ".join(RLO + part for part in value.split(", "))
    return RLO + value


def marked(data: dict) -> dict:
    return {key: mark(key, value) if key in TYPED else value for key, value in data.items()}


def pieces(value: str) -> set[str]:
    """A typed text as it may show: whole, or one entry of a list typed one per line or comma."""
    found = {value.strip()}
    for part in re.split(r"[,\n]", value):
        found.add(part.strip())
        found.add(re.sub(r"×\d+$", "", part).strip())
    return found


def marked_setup(game: str, typed: set[str]) -> dict:
    """The game's set-up with the names the group types in it marked: Any game's trackers
    (not the shipped Notes and Results), Aeon's End's players and mages."""
    setup = copy.deepcopy(SAMPLE_SETUPS.get(game) or factories.SETUPS[game])
    if game == "any":
        for t in setup["trackers"]:
            if not t.get("shipped"):
                t["name"] = RLO + t["name"]
                t["items"] = [RLO + item for item in t.get("items", [])]
                typed |= {t["name"], *t["items"]}
    if game == "aeonsend":
        for p in setup["players"]:
            p["player"], p["character"] = RLO + p["player"], RLO + p["character"]
            typed |= {p["player"], p["character"]}
    return setup


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_every_typed_text_is_isolated_on_every_page(db, game, monkeypatch):
    monkeypatch.setattr("campaigns.models._system_random", random.Random(12))
    owner = factories.user("olive", first_name=RLO + "Olive")
    friend = factories.user("fern", first_name=RLO + "Fern")
    typed = {RLO + "Olive", RLO + "Fern"}
    setup = marked_setup(game, typed)
    campaign = factories.campaign(
        game,
        owner=owner,
        name=RLO + "Nights",
        setup=setup,
        members={friend: Membership.Role.PLAYER},
    )
    typed.add(RLO + "Nights")
    acting = client_for(owner)
    classes = isolating_classes()
    bad: list[str] = []
    seen = 0

    def read(viewer, urls: list[str]) -> None:
        nonlocal seen
        for url in urls:
            parser = Unisolated(typed, classes)
            parser.feed(text(viewer.get(url)))
            parser.close()
            bad.extend(f"{url}: {problem}" for problem in parser.bad)
            seen += parser.seen

    for number, (action, post) in enumerate(SAMPLE_POSTS[game]):
        data, _made = sample_data(campaign, owner, post)
        url = reverse("campaigns:act", args=[campaign.pk, action])
        if acting.post(url, marked(data)).status_code == 302:
            for key, value in marked(data).items():
                for one in value if isinstance(value, list) else [value]:
                    if key in TYPED and isinstance(one, str) and one:
                        typed |= pieces(one)
        else:  # a choice, not a typed text
            assert acting.post(url, data).status_code == 302, (action, data)
        if number % 6 == 5:  # along the way too: a later change may take a text away again
            read(acting, page_urls(campaign))
    campaign.refresh_from_db()
    urls = [*page_urls(campaign), display_url(campaign), reverse("campaigns:home")]
    for viewer in (acting, client_for(friend)):
        read(viewer, urls)
    print(f"{game}: {seen} typed texts met")
    assert seen >= 50, seen  # the typed texts did reach the pages
    assert not bad, "\n".join(dict.fromkeys(bad))
