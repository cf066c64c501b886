"""The live refresh is drawn once for every phone that shows the same (campaigns/views/shared.py).

When a change reaches 200 phones, each asks for its page again; the page is drawn once and
each phone gets the same bytes: its forms' CSRF token is empty, and the phone sends the token
of its full page (the csrf-token meta tag) in a header. These tests hold the key of that sharing
to what the pages show: two members with the same role see the same page, byte for byte, on
every page of every game; an owner and a viewer, English and Japanese, the version before and
after a change each get their own.
"""

from __future__ import annotations

import random
import re
import secrets
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from campaigns.games import GAMES
from campaigns.models import Membership
from campaigns.views import shared
from campaigns.views.render import template_for
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, client_for, sample_data
from tests.journeys import Phone, page_urls, text

LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_X_LIVE_REFRESH": "true"}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


@pytest.fixture(autouse=True)
def _nothing_shared_yet():
    shared.ANSWERS.clear()
    yield
    shared.ANSWERS.clear()


def tokens(body: str) -> set[str]:
    return set(TOKEN.findall(body))


def refresh(client: Client, url: str) -> str:
    response = client.get(url, **LIVE)
    assert response.status_code == 200, url
    return text(response)


class Drawn:
    """Counts the renders of one template (Django's test signal, sent for every template)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    def __call__(self, sender, template, context, **kwargs) -> None:
        if template.name == self.name:
            self.count += 1

    def __enter__(self) -> Drawn:
        template_rendered.connect(self)
        return self

    def __exit__(self, *exc) -> None:
        template_rendered.disconnect(self)


def test_twenty_phones_refreshing_one_version_draw_the_page_once(db):
    owner = factories.user("olive")
    players = [factories.user(f"player{n}") for n in range(20)]
    campaign = factories.campaign(
        "any",
        owner=owner,
        members=dict.fromkeys(players, Membership.Role.PLAYER),
        events=[("counter.adjust", {"tracker": 1, "delta": 1})],
    )
    phones = [client_for(player) for player in players]
    url = reverse("campaigns:campaign", args=[campaign.pk])
    with Drawn(template_for(campaign, "")) as drawn:
        answers = [refresh(phone, url) for phone in phones]
    assert drawn.count == 1
    assert len(set(answers)) == 1
    assert "Doom" in answers[0]

    # The page outside the live refresh is drawn for each request, as before.
    with Drawn(template_for(campaign, "")) as drawn:
        phones[0].get(url)
        phones[1].get(url, HTTP_HX_REQUEST="true")
    assert drawn.count == 2


def test_after_a_change_the_next_refresh_shows_it(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("any", owner=owner, members={friend: Membership.Role.PLAYER})
    url = reverse("campaigns:campaign", args=[campaign.pk])
    looking = client_for(friend)
    before = refresh(looking, url)
    assert '<output class="value" aria-live="polite">0</output>' in before
    client_for(owner).post(
        reverse("campaigns:act", args=[campaign.pk, "counter.adjust"]),
        {"tracker": 1, "delta": 1},
    )
    after = refresh(looking, url)
    assert '<output class="value" aria-live="polite">1</output>' in after
    assert looking.get(url, **LIVE)["X-Campaign-Version"] == str(campaign.version + 1)


META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
FORM = re.compile(r'<form method="post" action="([^"]*counter\.adjust/)".*?</form>', re.S)
FIELD = re.compile(
    r'<(?:input type="hidden"|button type="submit"[^>]*?) name="([^"]+)" value="([^"]*)"'
)


def plus_one(body: str) -> tuple[str, dict[str, str]]:
    """The address and fields of the page's first form that adds one to a counter."""
    form = next(form for form in FORM.finditer(body) if 'name="delta" value="1"' in form[0])
    return form[1], dict(FIELD.findall(form[0]))


def test_every_phone_gets_the_same_live_refresh_holding_no_token(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("any", owner=owner, members={friend: Membership.Role.OWNER})
    url = reverse("campaigns:campaign", args=[campaign.pk])
    phones, page_tokens = [], []
    for user in (owner, friend):
        phone = Client(enforce_csrf_checks=True)
        phone.force_login(user)
        full = text(phone.get(url))  # the phone's CSRF cookie, and its token once in the page
        page_tokens.append(META.search(full)[1])
        assert len(META.findall(full)) == 1
        phones.append(phone)
    first, second = (refresh(phone, url) for phone in phones)
    assert first == second  # one drawing, the same bytes for both phones
    assert tokens(first) == {""}
    assert "csrf-token" not in first
    assert not any(token in first for token in page_tokens)

    # A form of the refresh, posted as swap.js posts it: its empty field, and the token of the
    # phone's page in the X-CSRFToken header.
    action, data = plus_one(first)
    assert data["csrfmiddlewaretoken"] == ""
    for phone, other_token in ((phones[0], page_tokens[1]), (phones[1], page_tokens[0])):
        # Another phone's token is not this phone's.
        swapped = {"HX-Request": "true", "X-CSRFToken": other_token}
        assert phone.post(action, data, headers=swapped).status_code == 403
    campaign.refresh_from_db()
    assert campaign.version == 0
    mine = {"HX-Request": "true", "X-CSRFToken": page_tokens[0]}
    answer = phones[0].post(action, data, headers=mine)
    assert answer.status_code == 200
    campaign.refresh_from_db()
    assert campaign.version == 1


def test_a_post_with_neither_the_field_nor_the_header_is_refused(db):
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    url = reverse("campaigns:campaign", args=[campaign.pk])
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(owner)
    phone.get(url)
    body = refresh(phone, url)
    action, data = plus_one(body)
    answer = phone.post(action, data, headers={"HX-Request": "true"})
    assert answer.status_code == 403
    campaign.refresh_from_db()
    assert campaign.version == 0
    assert '<output class="value" aria-live="polite">0</output>' in refresh(phone, url)


def test_an_owner_and_a_viewer_get_their_own_pages(db):
    owner, viewer = factories.user("olive"), factories.user("vic")
    campaign = factories.campaign(
        "any",
        owner=owner,
        members={viewer: Membership.Role.VIEWER},
        events=[("counter.adjust", {"tracker": 1, "delta": 1})],
    )
    for page in ("campaigns:campaign", "campaigns:settings"):
        url = reverse(page, args=[campaign.pk])
        owners = refresh(client_for(owner), url)
        viewers = refresh(client_for(viewer), url)
        assert "You are a viewer" in viewers
        assert "You are a viewer" not in owners
        assert owners.count("<form") > viewers.count("<form")
    url = reverse("campaigns:campaign", args=[campaign.pk])
    owners = refresh(client_for(owner), url)
    # The owner may undo the change; for the viewer the button is disabled.
    undo = re.compile(r'<button type="submit" class="quiet" ?(disabled)?\s+title="Undo"')
    assert undo.search(owners)[1] is None
    assert undo.search(refresh(client_for(viewer), url))[1] == "disabled"


def test_each_language_gets_its_own_page(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("any", owner=owner, members={friend: Membership.Role.OWNER})
    url = reverse("campaigns:history", args=[campaign.pk])
    english, japanese = client_for(owner), client_for(friend)
    japanese.post(reverse("set-language"), {"language": "ja", "next": url})
    assert "Nothing has happened yet." in refresh(english, url)
    assert "Nothing has happened yet." not in refresh(japanese, url)
    assert 'lang="ja"' not in refresh(english, url)


def test_each_time_zone_gets_its_own_times(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign(
        "any",
        owner=owner,
        members={friend: Membership.Role.OWNER},
        events=[("counter.adjust", {"tracker": 1, "delta": 1})],
    )
    url = reverse("campaigns:history", args=[campaign.pk])
    utc, tokyo = client_for(owner), client_for(friend)
    tokyo.cookies["tz"] = "Asia/Tokyo"
    times = re.compile(r"<time [^>]*>([^<]*)</time>")
    assert times.findall(refresh(utc, url)) != times.findall(refresh(tokyo, url))


def test_the_members_page_is_drawn_for_each_member(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("any", owner=owner, members={friend: Membership.Role.OWNER})
    url = reverse("campaigns:members", args=[campaign.pk])
    with Drawn("members.html") as drawn:
        refresh(client_for(owner), url)
        refresh(client_for(friend), url)
    assert drawn.count == 2


def test_a_live_refresh_is_not_kept_by_a_browser_or_proxy(db):
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    response = client_for(owner).get(reverse("campaigns:campaign", args=[campaign.pk]), **LIVE)
    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]
    assert "X-Live-Refresh" in response["Vary"]


def play(campaign, owner, steps) -> None:
    """Post the sample changes of tests/samples.py, as tests/test_live_regions.py does."""
    acting = client_for(owner)
    for action, post in steps:
        data, _made = sample_data(campaign, owner, post)
        response = acting.post(reverse("campaigns:act", args=[campaign.pk, action]), data)
        assert response.status_code == 302, (action, data)
    campaign.refresh_from_db()


ROLES = (Membership.Role.OWNER, Membership.Role.PLAYER, Membership.Role.VIEWER)


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_members_with_one_role_see_the_same_on_every_page(db, game, monkeypatch):
    """What the key of a shared answer rests on: on every page but the members page, two
    members with the same role (different names, one of them the one who made the changes)
    see the same bytes, at the start, midway and at the end of
    every command of the game. Each page is drawn for each member (nothing shared between)."""
    monkeypatch.setattr("campaigns.models._system_random", random.Random(12))
    pairs = {role: (factories.user(f"{role}-a"), factories.user(f"{role}-b")) for role in ROLES}
    first_owner = pairs[Membership.Role.OWNER][0]
    members = {user: role for role, pair in pairs.items() for user in pair}
    del members[first_owner]
    campaign = factories.campaign(
        game, owner=first_owner, setup=SAMPLE_SETUPS.get(game), members=members
    )
    # The first player makes changes too, and undoes one: "who" on the undo bar is a member.
    player = pairs[Membership.Role.PLAYER][0]
    steps = SAMPLE_POSTS[game]
    half = len(steps) // 2
    phones = {user: client_for(user) for pair in pairs.values() for user in pair}
    urls = [url for url in page_urls(campaign) if not url.endswith("/members/")]
    differ = []
    for stage, played in enumerate(([], steps[:half], steps[half:])):
        play(campaign, first_owner, played)
        if stage == 2:
            factories.play(campaign, player, [("undo",)])
        for url in urls:
            for role, (one, other) in pairs.items():
                shared.ANSWERS.clear()
                mine = refresh(phones[one], url)
                shared.ANSWERS.clear()
                theirs = refresh(phones[other], url)
                if mine != theirs:
                    differ.append(f"{role} on {url} at version {campaign.version}")
    assert not differ, differ


@pytest.mark.server
def test_phones_refreshing_at_once_through_the_server_get_the_change(site):
    """The real server (companion/asgi.py answers a live refresh in one thread): many phones
    refreshing at once get the change, the same bytes holding no token, and each phone's
    page token works from it alone; a stranger gets a 404."""
    owner, friend, stranger = Phone(site.url), Phone(site.url), Phone(site.url)
    owner.signup(f"owner{secrets.token_hex(4)}")
    stranger.signup(f"stranger{secrets.token_hex(4)}")
    campaign = owner.create_campaign("Shared table", counters="Taps")
    friend.join(owner.invite_path(campaign), "Friend")
    page = owner.get(f"/c/{campaign}/").text
    taps = int(re.search(r'id="tracker-(\d+)-name">Taps<', page)[1])
    owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    live = {"HX-Request": "true", "X-Live-Refresh": "true"}
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(
                lambda phone: phone.get(f"/c/{campaign}/", headers=live),
                [owner, friend] * 8,
            )
        )
    assert {response.status_code for response in answers} == {200}
    assert {response.headers["X-Campaign-Version"] for response in answers} == {"1"}
    assert all('aria-live="polite">1</output>' in response.text for response in answers)
    assert "no-store" in answers[0].headers["Cache-Control"]
    assert len({response.text for response in answers}) == 1  # the same bytes for every phone
    assert TOKEN.findall(answers[0].text) == [""] * len(TOKEN.findall(answers[0].text))
    for phone, other in ((owner, friend), (friend, owner)):
        token = META.search(phone.get(f"/c/{campaign}/").text)[1]
        data = {"language": "en", "next": "/", "csrfmiddlewaretoken": ""}
        headers = {"X-CSRFToken": token}
        assert other.http.post("/language/", data=data, headers=headers).status_code == 403
        assert phone.http.post("/language/", data=data, headers=headers).status_code == 302
    assert stranger.get(f"/c/{campaign}/", headers=live).status_code == 404
    for phone in (owner, friend, stranger):
        phone.close()
