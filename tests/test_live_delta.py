"""A phone showing the previous version gets only the live regions a change redrew
(campaigns/live_delta.py): swapped in where live.js finds their ids, they make the page the
phone would have drawn whole. Checked against Python's own HTML parser, on every page of every
game after a few changes, and on random edits of the largest page.
"""

from __future__ import annotations

import functools
import random
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.games import GAMES
from campaigns.live_delta import delta, regions_of
from campaigns.models import Membership
from tests import factories
from tests.journeys import page_urls

LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_X_LIVE_REFRESH": "true"}
# A form's token and the version it was drawn at: live.js keeps the one and moves the other.
SAME = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|name="version" value="\d*"')
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


class Regions(HTMLParser):
    """The page's live regions as a browser's parser finds them: id, the enclosing region's id,
    and where each starts and ends in the text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        self.lines += [m.end() for m in re.finditer("\n", page)]
        self.stack: list[tuple[str, list | None]] = []
        self.found: list[list] = []  # [id, parent id, start, end]
        self.feed(page)
        self.close()

    def at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def enclosing(self) -> str | None:
        return next((r[0] for _tag, r in reversed(self.stack) if r is not None), None)

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        region = None
        if "data-live" in names and names.get("id"):
            region = [names["id"], self.enclosing(), self.at(), None]
            self.found.append(region)
        if tag not in VOID:
            self.stack.append((tag, region))

    def handle_endtag(self, tag):
        if tag not in (t for t, _r in self.stack):
            return
        while self.stack:
            open_tag, region = self.stack.pop()
            if region is not None:
                region[3] = self.at() + (len(f"</{tag}>") if open_tag == tag else 0)
            if open_tag == tag:
                break


@functools.lru_cache(maxsize=32)
def parsed(page: str) -> tuple[tuple, ...]:
    """The page's regions, parsed once however many times a check asks (each page is read as
    the page before, the page after, the partial or the swapped page: eight parses a check)."""
    return tuple(tuple(region) for region in Regions(page).found)


def regions(page: str) -> dict[str, str]:
    """Each region's markup by id, its forms' tokens and versions aside."""
    return {id_: SAME.sub("", page[start:end]) for id_, _up, start, end in parsed(page)}


def swapped(before: str, partial: str) -> str:
    """What live.js makes of `before` given a partial page: each region of the partial replaces
    the region with its id, wherever it is in the page."""
    spans = {id_: (start, end) for id_, _up, start, end in parsed(before)}
    sent = [(id_, partial[start:end]) for id_, up, start, end in parsed(partial) if up is None]
    page = before
    for id_, markup in sorted(sent, key=lambda item: -spans[item[0]][0]):
        start, end = spans[id_]
        page = page[:start] + markup + page[end:]
    return page


def title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page, re.DOTALL)
    return found.group(1) if found else ""


def check(before: str, after: str, where: str) -> str | None:
    """delta(before, after) swapped into `before` gives `after`'s regions, and sends no region
    that did not change; None only when the regions' ids or nesting changed."""
    partial = delta(before, after)
    # Every form's version is written as delta() reads it ({% command_form %}'s hidden input).
    assert after.count('name="version"') == len(re.findall(r'name="version" value="\d+"', after))
    shape = [(r[0], r[1]) for r in parsed(after)]
    if partial is None:
        assert not shape or shape != [(r[0], r[1]) for r in parsed(before)], where
        return None
    assert regions(swapped(before, partial)) == regions(after), where
    assert title(partial) == title(after), where
    old, new = regions(before), regions(partial)
    for id_ in (r[0] for r in parsed(partial) if r[1] is None):
        assert new[id_] != old[id_], f"{where}: {id_} sent unchanged"
    return partial


# A few changes per game, that move most pages: (action, data or data from the state).
STEPS = {
    "any": [
        ("counter.adjust", lambda s: {"tracker": kind(s, "counter"), "delta": 1}),
        ("tracker.add", {"kind": "notes", "name": "Leads"}),
        ("notes.add", lambda s: {"tracker": s["trackers"][-1]["id"], "text": "A clue"}),
        ("campaign.rename", {"name": "Renamed"}),
    ],
    "arkham": [
        ("investigator.add", {"name": "Roland", "player": "Ann", "health": 9, "sanity": 5}),
        ("scenario.start", {"name": "The Gathering"}),
        ("bag.draw", {}),
        ("bag.done", lambda s: {"test": s["draws"][-1]["id"]}),
        ("bag.change", {"token": "+1", "delta": 1}),
        ("round.doom", {"delta": 1}),
        ("investigator.xp", lambda s: {"investigator": s["investigators"][0]["id"], "delta": 3}),
    ],
    "aeonsend": [
        ("ae.start", {"nemesis": "Rageborne", "nemesis_life": 60, "difficulty": "standard"}),
        ("ae.life", {"who": "gravehold", "delta": -2}),
        ("ae.in_play", {"kind": "minion", "name": "Husk", "value": 2}),
        ("ae.card", {"name": "Spark", "kind": "spell", "cost": 1}),
        ("ae.banish", {"text": "Spark", "game": 1, "reason": "Too good"}),
    ],
    "eldritch": [
        ("eh.doom", {"step": "advance"}),
        ("eh.gate", {"colour": "blue", "delta": 1}),
        ("eh.track", lambda s: {"investigator": eh_who(s), "track": "health", "delta": -1}),
        ("eh.roll", lambda s: {"dice": 6, "bonus": "cursed", "investigator": eh_who(s)}),
        ("eh.draw", {}),
    ],
    "noir": [
        ("noir.victim", {"column": 1, "name": "Ada"}),
        ("noir.count", {"column": 1, "count": "cards", "delta": 1}),
        ("noir.pile", {"pile": "madness", "delta": 1}),
        ("noir.big", {"type": 3, "delta": 1}),
    ],
}


def kind(s, name: str) -> int:
    return next(t["id"] for t in s["trackers"] if t["kind"] == name)


def eh_who(s) -> int:
    return s["game"]["investigators"][0]["id"]


def drawn(phone: Client, url: str) -> str:
    response = phone.get(url, **LIVE)
    assert response.status_code == 200, url
    return response.content.decode()


def test_every_game_has_steps():
    assert set(STEPS) == set(GAMES)


@pytest.mark.sweep  # every page of every game, after each of its steps
@pytest.mark.parametrize("game", list(GAMES))
def test_the_changed_regions_make_the_new_page_on_every_page(db, game):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign(game, owner=owner, members={friend: Membership.Role.PLAYER})
    phone = Client()
    phone.force_login(friend)
    urls = page_urls(campaign)
    pages = {url: drawn(phone, url) for url in urls}
    partials = 0
    for action, data in STEPS[game]:
        campaign.refresh_from_db()
        data = data(campaign.state) if callable(data) else data
        campaign.apply(action, dict(data), owner, rng=random.Random(7))
        for url in urls:
            after = drawn(phone, url)
            partials += check(pages[url], after, f"{action} on {url}") is not None
            pages[url] = after
    # Most changes leave the regions where they were: a partial page, not the whole.
    assert partials > len(urls) * len(STEPS[game]) // 2


def test_a_counter_tap_sends_the_counter_not_the_page(db):
    owner = factories.user("olive")
    campaign = factories.campaign(
        "any",
        owner=owner,
        # A table's trackers: the shipped ones and a few of the group's own.
        events=[
            ("tracker.add", {"kind": kind, "name": name, "minimum": 0, "maximum": 20})
            for kind, name in (("counter", "Clues"), ("notes", "Leads"), ("counter", "Health"))
        ],
    )
    phone = Client()
    phone.force_login(owner)
    url = reverse("campaigns:campaign", args=[campaign.pk])
    before = drawn(phone, url)
    doom = kind(campaign.state, "counter")
    factories.play(campaign, owner, [("counter.adjust", {"tracker": doom, "delta": 1})])
    after = drawn(phone, url)
    partial = check(before, after, "counter.adjust")
    assert partial is not None
    sent = regions(partial)
    assert f"tracker-{doom}" in sent or any(f"tracker-{doom}" in m for m in sent.values())
    assert {"Clues", "Leads", "Health"}.isdisjoint("".join(sent.values()))
    # The counter and the undo bar (which now names this change): a fifth of the page at most.
    assert len(partial) * 5 < len(after), (len(partial), len(after))


def test_no_regions_or_other_regions_send_the_whole_page():
    one = '<title>A</title><div id="a" data-live>1</div><div id="b" data-live>2</div>'
    assert delta("<p>x</p>", "<p>y</p>") is None
    assert delta(one, one.replace('id="b" data-live', 'id="c" data-live')) is None
    assert delta(one, one.replace('<div id="b" data-live>2</div>', "")) is None
    nested = '<div id="a" data-live>1<div id="b" data-live>2</div></div>'
    assert delta(one, nested) is None
    assert delta(one, one) == "<title>A</title>"


def test_the_scan_reads_tags_as_a_parser_does():
    page = (
        '<!-- <div id="x" data-live> --><section class=\'card\' data-title="a > b" '
        'id="outer" data-live hidden><input value="<p>"><ul><li id=in data-live=\'\'>1</li><li>2'
        '</ul><br/><svg><path d="m1 2"/></svg></section><div id="last" data-live>x</div>'
    )
    found = [(r.id, r.parent.id if r.parent else None, r.start, r.end) for r in regions_of(page)]
    assert found == [tuple(r) for r in parsed(page)]
    assert [r[0] for r in found] == ["outer", "in", "last"]


@pytest.fixture
def bag_page(db) -> str:
    """The Arkham chaos bag page mid-scenario: the largest page there is."""
    owner = factories.user("bag-owner")
    campaign = factories.campaign(
        "arkham",
        owner=owner,
        events=[
            ("investigator.add", {"name": "Roland", "player": "A", "health": 9, "sanity": 5}),
            ("scenario.start", {"name": "The Gathering"}),
            ("bag.draw", {}),
        ],
    )
    phone = Client()
    phone.force_login(owner)
    return drawn(phone, reverse("campaigns:game-page", args=[campaign.pk, "bag"]))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_edits_of_the_bag_page_send_exactly_the_edited_regions(bag_page, data):
    found = parsed(bag_page)
    assert len(found) > 10
    edited = data.draw(st.sets(st.sampled_from(range(len(found))), max_size=6))
    words = data.draw(st.text("ab <>&\"'é", min_size=1, max_size=8))
    # A region's own content changes: text after its start tag.
    after = bag_page
    for n in sorted(edited, key=lambda n: -found[n][2]):
        opened = after.index(">", found[n][2]) + 1
        after = after[:opened] + words.replace("<", "&lt;") + after[opened:]
    partial = check(bag_page, after, "edit")
    assert partial is not None
    ids = {found[n][0] for n in edited}
    topmost = {i for i in ids if not ancestors(found, i) & ids}
    assert {r[0] for r in parsed(partial) if r[1] is None} == topmost


def ancestors(found: tuple[tuple, ...], id_: str) -> set[str]:
    up = {r[0]: r[1] for r in found}
    out = set()
    while up.get(id_):
        id_ = up[id_]
        out.add(id_)
    return out
