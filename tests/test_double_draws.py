"""Double draws, against a real server: two phones tapping Draw at once, or one phone tapping it
twice (the second tap as the first one's answer arrives), make one draw. The other phone's tap
was made from a screen that had not seen the draw, so it is refused as changed meanwhile and its
phone is shown what the first tap did; the same phone's second tap is the first one again."""

from __future__ import annotations

import html
import re
import secrets
import threading

import httpx
import pytest

from tests.factories import TWO_PLAYER_POST
from tests.journeys import Phone, wait_until

pytestmark = pytest.mark.server

HTMX = {"HX-Request": "true"}

NEW = {
    "arkham": {"name": "Draw race", "campaign": "notz", "difficulty": "standard"},
    "aeonsend": {"name": "Draw race", **TWO_PLAYER_POST},
}
# What the game needs before its first draw.
FIRST = {
    "arkham": [],
    "aeonsend": [("ae.start", {"nemesis": "Rageborne", "nemesis_life": 60})],
}
# The draw: (command, page, region) as the draw button's form posts it.
DRAW = {"arkham": ("bag.draw", "bag", "bag-actions"), "aeonsend": ("ae.draw", "turns", "deck")}


def version(phone: Phone, campaign: int) -> int:
    return phone.get(f"/c/{campaign}/version/").json()["version"]


def history(phone: Phone, campaign: int) -> list[str]:
    page = phone.get(f"/c/{campaign}/history/").text
    return [html.unescape(t) for t in re.findall(r'<span class="text">(.*?)</span>', page)]


@pytest.fixture(params=["arkham", "aeonsend"])
def table(request, site):
    game = request.param
    owner, friend = Phone(site.url), Phone(site.url)
    owner.signup(f"drawer{secrets.token_hex(4)}")
    response = owner.post(f"/new/{game}/", NEW[game])
    assert response.status_code == 302, response.text
    campaign = int(re.search(r"/c/(\d+)/", response.headers["location"]).group(1))
    friend.join(owner.invite_path(campaign), "Friend")
    for action, data in FIRST[game]:
        assert owner.post(f"/c/{campaign}/do/{action}/", data).status_code == 302
    friend.csrf()
    yield game, owner, friend, campaign
    owner.close()
    friend.close()


def tap_draw(phone, game, campaign, seen, change, answers, start=None) -> None:
    """One tap on the draw button of a screen that showed version `seen`."""
    action, page, region = DRAW[game]
    if start is not None:
        start.wait()
    data = {"version": seen, "page": page, "region": region, "change": change}
    try:
        answers.append(phone.post(f"/c/{campaign}/do/{action}/", data, headers=HTMX, timeout=30))
    except httpx.HTTPError as error:  # reported by the assertion on the answers
        answers.append(error)


def one_draw_and_one_refusal(game, phone, campaign, seen, answers, who: str) -> None:
    assert all(isinstance(a, httpx.Response) for a in answers), answers
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert version(phone, campaign) == seen + 1
    drawn = history(phone, campaign)[0]
    refused = next(a for a in answers if a.status_code == 409)
    # The refused phone is told whose tap came first and what it drew.
    assert f"Changed meanwhile {who} ({drawn})" in html.unescape(refused.text)


def test_two_phones_tapping_draw_at_once_make_one_draw(table):
    game, owner, friend, campaign = table
    for _round in range(3):
        seen = version(owner, campaign)
        answers: list = []
        start = threading.Barrier(2)
        threads = [
            threading.Thread(
                target=tap_draw,
                args=(phone, game, campaign, seen, f"{name}{seen:04d}.1", answers, start),
            )
            for phone, name in ((owner, "ownerphone"), (friend, "friendphone"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        one_draw_and_one_refusal(game, owner, campaign, seen, answers, "on another phone")


def test_one_phone_double_tapping_draw_makes_one_draw(table):
    game, owner, _friend, campaign = table
    seen = version(owner, campaign)
    answers: list = []
    taps = [
        threading.Thread(
            target=tap_draw,
            args=(owner, game, campaign, seen, f"doubletapphone.{n}", answers),
        )
        for n in (1, 2)
    ]
    taps[0].start()
    # The second tap comes as the first one's answer arrives (the draw shows, the finger is
    # still there): within half a second on this machine, unless it is very loaded.
    assert wait_until(lambda: answers, timeout=60)
    taps[1].start()
    for thread in taps:
        thread.join(timeout=60)
    assert all(isinstance(a, httpx.Response) for a in answers), answers
    assert version(owner, campaign) == seen + 1
    # The second tap is the first one again (tests/test_same_tap.py), answered with its draw; on
    # a machine so loaded that it reached the server more than half a second after the draw, it
    # is refused as made from the screen before it, naming this phone's own tap.
    for answer in answers:
        if answer.status_code != 200:
            assert answer.status_code == 409
            assert "by your earlier tap on this phone" in html.unescape(answer.text)
