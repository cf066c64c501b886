"""Every change reaches every phone: a phone that is looking at a page gets a change made on
another phone by live.js, which swaps only the page's `data-live` regions. So for every command of
every game, what a second member sees outside those regions must be the same before and after the
change; otherwise that part of the page would stay old on their phone until they reload it.

tests/samples.py (through tests/factories.py) holds a valid post for every command of every
game, in an order that makes each one possible (an investigator before their trauma, a draw
before drawing another).
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse

from campaigns.games import GAMES
from campaigns.live_delta import regions_of
from campaigns.models import Membership
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, client_for, sample_data
from tests.journeys import page_urls, text

State = dict[str, Any]
Post = dict[str, Any] | Callable[[State], dict[str, Any]]

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class OutsideLive(HTMLParser):
    """The page with each outermost `data-live` region replaced by a marker naming its id (the
    phone swaps a region by its id, so a region that appears or goes is a change outside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # open elements: (tag, is a region)
        self.regions = 0  # how many of them are regions (a count, not a walk of the stack)

    def inside(self) -> bool:
        return self.regions > 0

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        region = "data-live" in names
        if not self.inside():
            if region:
                self.out.append(f"<region {names.get('id')}>")
            else:
                # What changes with every answer and is no change to show: the CSRF token (in
                # the forms of a full page, and once in its csrf-token meta tag).
                token = names.get("name") in {"csrfmiddlewaretoken", "csrf-token"}
                attrs = [
                    (k, "" if k in {"value", "content"} and token else v)
                    for k, v in attrs
                    if not (names.get("id") == "live-root" and k == "data-version")
                ]
                self.out.append(f"<{tag} {attrs}>")
        if tag not in VOID:
            self.stack.append((tag, region))
            self.regions += region

    def handle_endtag(self, tag):
        if tag not in (t for t, _region in self.stack):
            return
        while self.stack:
            open_tag, region = self.stack.pop()
            self.regions -= region
            if open_tag == tag:
                break
        if not self.inside() and not region:
            self.out.append(f"</{tag}>")

    def handle_data(self, data):
        # live.js copies the fresh page's title (the campaign's name) on every refresh.
        if self.stack and self.stack[-1][0] == "title":
            return
        if not self.inside() and data.strip():
            self.out.append(data.strip())

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")


def outside_live(html: str) -> list[str]:
    parser = OutsideLive()
    parser.feed(html)
    parser.close()
    return parser.out


# What OutsideLive sets aside, found in the text: a CSRF token's value (a form's input, the meta
# tag), the live root's version and the title's text.
TOKEN = re.compile(r'<[^>]*name="(?:csrfmiddlewaretoken|csrf-token)"[^>]*>')
TOKEN_VALUE = re.compile(r'(value|content)="[^"]*"')
ROOT_VERSION = re.compile(r'(<[^>]*id="live-root"[^>]*)data-version="\d*"')
TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)


def outside_text(html: str) -> str:
    """The page's text outside its outermost regions (each replaced by its id), with what
    OutsideLive sets aside taken out, and nothing else: two pages with the same are the same to
    OutsideLive (campaigns/live_delta.py's scan finds the regions as Python's parser does,
    tests/test_live_delta.py), so the parser runs only where these differ. The parser made
    this sweep's every comparison, a third of its time."""
    pieces, at = [], 0
    for region in regions_of(html):
        if region.parent is None:
            pieces += [html[at : region.start], f"<region {region.id}>"]
            at = region.end
    pieces.append(html[at:])
    outside = TOKEN.sub(lambda tag: TOKEN_VALUE.sub(r'\1=""', tag.group()), "".join(pieces))
    return TITLE.sub("<title>", ROOT_VERSION.sub(r'\1data-version=""', outside))


def changes_outside(before: str, after: str) -> list[str]:
    """What changed outside the live regions from `before` to `after` (a diff), if anything."""
    if outside_text(before) == outside_text(after):
        return []
    was, now = outside_live(before), outside_live(after)
    return [] if was == now else list(difflib.unified_diff(was, now, lineterm="", n=1))[2:8]


def test_every_command_of_every_game_has_a_sample_post():
    for key, game in GAMES.items():
        assert set(game.commands) == {action for action, _post in SAMPLE_POSTS[key]}, key


def test_the_quick_comparison_finds_what_the_parser_finds(owner):
    """Pages that differ only in their tokens, version, title or inside a region are the same;
    a word outside the regions is a change, in the words of OutsideLive's diff."""
    campaign = factories.campaign("any", owner=owner)
    page = text(client_for(owner).get(reverse("campaigns:campaign", args=[campaign.pk])))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None and 'data-version="0"' in page
    region = re.search(r"<[^>]*data-live[^>]*>", page)
    assert region is not None
    same = (
        page.replace(token.group(1), "another-token")
        .replace('data-version="0"', 'data-version="7"')
        .replace("<title>", "<title>Renamed ")
    )
    inside = page[: region.end()] + "<b>drawn</b>" + page[region.end() :]
    outside = page[: region.start()] + "<p>Left behind</p>" + page[region.start() :]
    assert changes_outside(page, same) == []
    assert changes_outside(page, inside) == []
    assert "+Left behind" in changes_outside(page, outside)
    assert outside_live(page) != outside_live(outside)


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_a_change_shows_on_another_phone_without_a_reload(db, game, monkeypatch):
    # The same draws every run, so every step's sample post fits the state it meets.
    monkeypatch.setattr("campaigns.models._system_random", random.Random(12))
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign(
        game, owner=owner, setup=SAMPLE_SETUPS.get(game), members={friend: Membership.Role.PLAYER}
    )
    acting, looking = client_for(owner), client_for(friend)
    urls = page_urls(campaign)
    missed: list[str] = []
    seen = {url: text(looking.get(url)) for url in urls}
    for action, post in SAMPLE_POSTS[game]:
        data, made = sample_data(campaign, owner, post)
        if made:
            seen = {url: text(looking.get(url)) for url in urls}
        response = acting.post(reverse("campaigns:act", args=[campaign.pk, action]), data)
        assert response.status_code == 302, (
            action,
            data,
            re.findall(r'class="error"[^>]*>([^<]*)', text(response)),
        )
        for url in urls:
            after = text(looking.get(url))
            if diff := changes_outside(seen[url], after):
                missed.append(f"{action} on {url}: {' | '.join(diff)}")
            seen[url] = after
    assert not missed, "\n".join(missed)
