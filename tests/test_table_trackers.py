"""Any game at a table (issue 21, point 7): a turn tracker (seat order, whose turn, rounds, a
pass, the first player picked at random on the server), a sand-timer (its start stored, each
phone counting down), and a coin flipped on the server; every one recorded, undone, refused
with a message on bad input, and on the table display."""

import datetime
import html
import random
import re

from django.test import Client
from django.utils import timezone

from campaigns.trackers.types import AnyGameState
from campaigns.views.display import display_url
from tests import factories
from tests.factories import make_campaign, problems, tracker_id
from tests.journeys import assert_refused, text


def add(client, campaign, **fields):
    return client.post(f"/c/{campaign.pk}/do/tracker.add/", {"region": "add-tracker", **fields})


def do(client, campaign, action, **fields):
    campaign.refresh_from_db()
    data = {"region": "x", "version": campaign.version, **fields}
    response = client.post(f"/c/{campaign.pk}/do/{action}/", data)
    assert response.status_code == 302, text(response)[-1500:]
    campaign.refresh_from_db()
    return campaign


def turns_of(campaign):
    return next(t for t in campaign.state["trackers"] if t["kind"] == "turns")


def page_of(client, campaign):
    return html.unescape(text(client.get(f"/c/{campaign.pk}/")))


def test_turns_go_round_the_table_from_a_random_first_player_a_pass_sits_out_the_round(
    owner, owner_client
):
    campaign = make_campaign(owner, trackers=[])
    assert (
        add(owner_client, campaign, kind="turns", name="Turns", items="Ana, Ben, Cy").status_code
        == 302
    )
    turns = tracker_id(campaign, "Turns")
    assert "Pick the first player at random to start round 1." in page_of(owner_client, campaign)
    campaign = do(owner_client, campaign, "turns.first", tracker=turns)
    found = turns_of(campaign)
    names = {s["id"]: s["name"] for s in found["seats"]}
    first = names[found["first"]]
    # The pick is stored in its event, so a replay gives the same first player.
    event = campaign.events.latest("seq")
    assert names[event.data["seat"]] == first == event.data["label"]
    assert campaign.replay() == campaign.state
    order = ["Ana", "Ben", "Cy"]
    round_order = order[order.index(first) :] + order[: order.index(first)]
    page = page_of(owner_client, campaign)
    assert f"{first}'s turn" in page and re.search(rf"Round 1 ·\s*then {round_order[1]}", page)

    campaign = do(owner_client, campaign, "turns.pass", tracker=turns)  # the first player passes
    assert names[turns_of(campaign)["current"]] == round_order[1]
    campaign = do(owner_client, campaign, "turns.next", tracker=turns)
    assert names[turns_of(campaign)["current"]] == round_order[2]
    assert re.search(r"Round 1 ·\s*then a new round", page_of(owner_client, campaign))
    campaign = do(owner_client, campaign, "turns.next", tracker=turns)
    found = turns_of(campaign)
    assert (found["round"], names[found["current"]], found["passed"]) == (2, first, [])
    assert f"{first}'s turn" in page_of(owner_client, campaign)
    history = html.unescape(text(owner_client.get(f"/c/{campaign.pk}/history/")))
    assert f"Turns: {first} goes first (picked at random), round 1" in history
    assert f"Turns: {first} passed for this round" in history

    owner_client.post(f"/c/{campaign.pk}/undo/", {})
    campaign.refresh_from_db()
    assert turns_of(campaign)["round"] == 1


def test_a_pick_on_the_server_can_land_on_any_seat(owner):
    campaign = factories.campaign(
        "any",
        owner=owner,
        setup={"trackers": [{"kind": "turns", "name": "T", "items": ["A", "B"]}]},
    )
    turns = campaign.state["trackers"][0]["id"]
    firsts = set()
    for seed in range(12):
        campaign.apply("turns.first", {"tracker": turns}, owner, rng=random.Random(seed))
        campaign.refresh_from_db()
        firsts.add(turns_of(campaign)["first"])
    assert len(firsts) == 2


def test_turn_tracker_bad_input_is_refused_with_a_message(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    add(owner_client, campaign, kind="turns", name="Turns", items="Ana")
    turns = tracker_id(campaign, "Turns")
    campaign.refresh_from_db()
    version = campaign.version
    assert_refused(
        owner_client,
        campaign,
        "do/turns.next/",
        {"tracker": turns, "version": version},
        message="Pick the first player first.",
    )
    assert_refused(
        owner_client,
        campaign,
        "do/turns.seat/",
        {"tracker": turns, "seat": " ana "},
        message="“ana” already has a seat.",
    )
    assert_refused(
        owner_client,
        campaign,
        "do/turns.seat/",
        {"tracker": turns, "seat": "   "},
        message="This field is required.",
    )
    assert_refused(
        owner_client,
        campaign,
        "do/turns.seat/",
        {"tracker": turns, "seat": "x" * 61},
        message="Ensure this value has at most 60 characters",
    )
    response = add(owner_client, campaign, kind="turns", name="Two", items="Bo, bo")
    assert response.status_code == 422 and "“bo” already has a seat." in html.unescape(
        text(response)
    )
    do(owner_client, campaign, "turns.seat", tracker=turns, seat="Ben")
    assert [s["name"] for s in turns_of(campaign)["seats"]] == ["Ana", "Ben"]


def test_a_timer_stores_its_start_and_every_phone_counts_down_from_it(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    assert (
        add(owner_client, campaign, kind="timer", name="Turn timer", seconds=90).status_code == 302
    )
    timer = tracker_id(campaign, "Turn timer")
    page = page_of(owner_client, campaign)
    assert ">1:30<" in page and "data-ends" not in page
    before = timezone.now()
    campaign = do(owner_client, campaign, "timer.start", tracker=timer, seconds=45)
    found = campaign.state["trackers"][0]
    started = datetime.datetime.fromisoformat(found["started"])
    assert before <= started <= timezone.now() and found["duration"] == 45
    ends = int((started + datetime.timedelta(seconds=45)).timestamp() * 1000)
    page = page_of(owner_client, campaign)
    assert f'data-ends="{ends}"' in page and "js/timer.js" in page
    display = html.unescape(text(Client().get(display_url(campaign))))
    assert f'data-ends="{ends}"' in display and "js/timer.js" in display
    do(owner_client, campaign, "timer.stop", tracker=timer)
    assert "data-ends" not in page_of(owner_client, campaign)
    for seconds in ("4", "3601", "x", ""):
        assert_refused(
            owner_client,
            campaign,
            "do/timer.start/",
            {"tracker": timer, "seconds": seconds},
            message="",
        )
    response = owner_client.post(
        f"/c/{campaign.pk}/do/timer.start/", {"tracker": timer, "seconds": "4", "region": "x"}
    )
    assert "Ensure this value is greater than or equal to 5." in html.unescape(text(response))
    assert_refused(
        owner_client,
        campaign,
        "do/timer.stop/",
        {"tracker": timer},
        message="The timer is not running.",
    )


def test_a_finished_timer_says_times_up(owner):
    campaign = factories.campaign(
        "any", owner=owner, setup={"trackers": [{"kind": "timer", "name": "T", "seconds": 5}]}
    )
    timer = campaign.state["trackers"][0]["id"]
    long_ago = (timezone.now() - datetime.timedelta(minutes=5)).isoformat()
    campaign.state["trackers"][0].update(started=long_ago)
    campaign.save()
    assert "Time's up" in html.unescape(text(Client().get(display_url(campaign))))
    assert timer


def test_a_coin_is_flipped_on_the_server_and_recorded(owner, owner_client):
    campaign = make_campaign(owner, trackers=[])
    assert add(owner_client, campaign, kind="coin", name="Coin").status_code == 302
    coin = tracker_id(campaign, "Coin")
    campaign = do(owner_client, campaign, "coin.flip", tracker=coin)
    # One flip so far: "Last flip · Heads 1 · Tails 0" (it read "Last flip: 1", as if a side).
    assert re.search(r"Last flip ·\s+Heads \d · Tails \d", page_of(owner_client, campaign))
    sides = set()
    for _ in range(11):
        campaign = do(owner_client, campaign, "coin.flip", tracker=coin)
        sides.add(campaign.events.latest("seq").data["side"])
    flips = campaign.state["trackers"][0]["flips"]
    assert len(flips) == 10 and sides <= {"heads", "tails"}
    last = flips[-1]["side"].title()
    assert f'<p class="coin-side" role="status">{last}</p>' in page_of(owner_client, campaign)
    assert campaign.replay() == campaign.state
    assert_refused(
        owner_client,
        campaign,
        "do/coin.flip/",
        {"tracker": 999, "version": campaign.version},
        message="That tracker is not in this campaign any more.",
    )


def test_the_display_shows_whose_turn_the_timer_and_the_coin(owner):
    campaign = factories.campaign(
        "any",
        owner=owner,
        setup={
            "trackers": [
                {"kind": "turns", "name": "Turns", "items": ["Ana", "Ben"]},
                {"kind": "timer", "name": "Sand", "seconds": 30},
                {"kind": "coin", "name": "Coin"},
            ]
        },
    )
    ids = [t["id"] for t in campaign.state["trackers"]]
    campaign = factories.play(
        campaign, owner, [("turns.first", {"tracker": ids[0]}), ("coin.flip", {"tracker": ids[2]})]
    )
    page = html.unescape(text(Client().get(display_url(campaign))))
    current = next(
        s["name"]
        for s in campaign.state["trackers"][0]["seats"]
        if s["id"] == campaign.state["trackers"][0]["current"]
    )
    assert f'<p class="value turn"><bdi>{current}</bdi></p>' in page
    assert "<bdi>Turns</bdi> · Round 1" in page and ">0:30<" in page
    side = campaign.state["trackers"][2]["flips"][-1]["side"].title()
    assert f'<p class="value">{side}</p>' in page
    assert "No counters yet." not in page


def test_every_state_the_new_trackers_make_is_an_any_game_state(owner):
    campaign = factories.campaign(
        "any",
        owner=owner,
        setup={
            "trackers": [
                {"kind": "turns", "name": "Turns", "items": ["Ana", "Ben"]},
                {"kind": "timer", "name": "Sand", "seconds": 30},
                {"kind": "coin", "name": "Coin"},
            ]
        },
    )
    turns, timer, coin = (t["id"] for t in campaign.state["trackers"])
    steps = [
        ("turns.seat", {"tracker": turns, "seat": "Cy"}),
        ("turns.first", {"tracker": turns}),
        ("turns.pass", {"tracker": turns}),
        ("turns.next", {"tracker": turns}),
        ("timer.start", {"tracker": timer, "seconds": 20}),
        ("coin.flip", {"tracker": coin}),
    ]
    for step in steps:
        campaign = factories.play(campaign, owner, [step])
        assert problems(campaign.state, AnyGameState) == [], step
    campaign = factories.play(campaign, owner, [("timer.stop", {"tracker": timer}), ("undo",)])
    assert problems(campaign.state, AnyGameState) == []
    assert campaign.replay() == campaign.state


def test_a_seat_leaves_the_table_and_the_turn_goes_on(owner, owner_client):
    campaign = factories.campaign(
        "any",
        owner=owner,
        setup={"trackers": [{"kind": "turns", "name": "T", "items": ["A", "B", "C"]}]},
    )
    turns = campaign.state["trackers"][0]["id"]
    campaign.apply("turns.first", {"tracker": turns}, owner, rng=random.Random(0))
    campaign.refresh_from_db()
    found = turns_of(campaign)
    names = {s["id"]: s["name"] for s in found["seats"]}
    leaving = found["current"]
    ids = [s["id"] for s in found["seats"]]
    following = ids[(ids.index(leaving) + 1) % 3]
    campaign = do(owner_client, campaign, "turns.unseat", tracker=turns, seat=leaving)
    found = turns_of(campaign)
    assert [s["name"] for s in found["seats"]] == [n for n in "ABC" if n != names[leaving]]
    assert found["current"] == found["first"] == following
    history = html.unescape(text(owner_client.get(f"/c/{campaign.pk}/history/")))
    assert f"T: {names[leaving]} left the table" in history
    assert_refused(
        owner_client,
        campaign,
        "do/turns.unseat/",
        {"tracker": turns, "seat": leaving, "version": campaign.version},
        message="That seat is not at the table any more.",
    )
    assert_refused(
        owner_client,
        campaign,
        "do/turns.unseat/",
        {"tracker": turns, "seat": "x", "version": campaign.version},
        message="Enter a whole number.",
    )
    for seat in list(found["seats"]):
        campaign = do(owner_client, campaign, "turns.unseat", tracker=turns, seat=seat["id"])
    found = turns_of(campaign)
    assert (found["seats"], found["current"], found["round"]) == ([], None, 0)
    assert problems(campaign.state, AnyGameState) == []
