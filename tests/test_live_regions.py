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


def test_every_command_of_every_game_has_a_sample_post():
    for key, game in GAMES.items():
        assert set(game.commands) == {action for action, _post in SAMPLE_POSTS[key]}, key


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
    seen = {url: outside_live(text(looking.get(url))) for url in urls}
    for action, post in SAMPLE_POSTS[game]:
        data, made = sample_data(campaign, owner, post)
        if made:
            seen = {url: outside_live(text(looking.get(url))) for url in urls}
        response = acting.post(reverse("campaigns:act", args=[campaign.pk, action]), data)
        assert response.status_code == 302, (
            action,
            data,
            re.findall(r'class="error"[^>]*>([^<]*)', text(response)),
        )
        for url in urls:
            after = outside_live(text(looking.get(url)))
            if after != seen[url]:
                diff = difflib.unified_diff(seen[url], after, lineterm="", n=1)
                missed.append(f"{action} on {url}: {' | '.join(list(diff)[2:8])}")
            seen[url] = after
    assert not missed, "\n".join(missed)
