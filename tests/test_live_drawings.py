"""The pages streams push are bounded: a page is drawn with only the query parameters it reads
(an address that differs otherwise shares its drawing), and one campaign version gets a few
distinct drawings pushed at most; beyond them a stream sends the version, and the phone asks
for its page as any request does."""

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import AsyncClient, Client

from campaigns import live
from campaigns.views.live import page_query
from campaigns.views.shared import PUSHED_DRAWINGS
from tests import factories
from tests.factories import make_campaign, make_user, tracker_id

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "a" * 32  # a phone's CSRF cookie (a page is pushed only to a phone that has one)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
DRAW = ("bag.draw", {})


async def next_message(stream) -> tuple[str, str]:
    """The stream's next message: its event and its data."""
    while True:
        chunk = await anext(stream)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("event:"):
            event, data = text.split("\n", 1)
            return event.removeprefix("event: "), data.removeprefix("data: ")


def change_and_close(campaign, user, action: str, data: dict) -> None:
    try:
        campaign.apply(action, data, user)
    finally:
        connection.close()  # this thread's, so the test database can be dropped at the end


def pushed(campaign, user, addresses: list[str], change: tuple[str, dict]) -> list[tuple]:
    """What streams showing `addresses` get when the campaign changes once."""

    async def table() -> list[tuple[str, str]]:
        streams = []
        # Every phone logs in before any stream opens: an opening stream reads the sessions in a
        # thread, and the suite's in-memory SQLite refuses a write beside a read ("table is
        # locked") where a database file would wait.
        clients = []
        for _address in addresses:
            client = AsyncClient()
            await client.aforce_login(user)
            client.cookies["csrftoken"] = CSRF
            clients.append(client)
        for client, address in zip(clients, addresses, strict=True):
            query = {"v": campaign.version, "page": address}
            response = await client.get(f"/c/{campaign.pk}/stream/", query)
            assert response.status_code == 200
            stream = aiter(response.streaming_content)
            assert (await anext(stream)).startswith(b"retry:")
            streams.append(stream)
        pending = [asyncio.ensure_future(next_message(stream)) for stream in streams]
        await asyncio.to_thread(change_and_close, campaign, user, *change)
        messages = await asyncio.wait_for(asyncio.gather(*pending), timeout=30)
        for stream in streams:
            await stream.aclose()
        await live.hub().stop()
        return messages

    # In a thread of its own: a browser test earlier in this worker leaves Playwright's event
    # loop running in this one, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, table()).result()


def test_addresses_that_differ_only_in_what_the_page_does_not_read_share_one_drawing():
    owner = make_user("olive")
    campaign = make_campaign(owner)
    doom = tracker_id(campaign, "Doom")
    # More than a version's drawings: each address its own drawing would leave some phones
    # with the version only.
    addresses = [f"/c/{campaign.pk}/?junk={n}" for n in range(PUSHED_DRAWINGS + 4)]
    messages = pushed(campaign, owner, addresses, ("counter.adjust", {"tracker": doom, "delta": 1}))
    assert [event for event, _data in messages] == ["page"] * len(addresses)


def test_beyond_a_few_distinct_drawings_a_version_the_streams_send_the_version():
    owner = make_user("olive")
    campaign = make_campaign(owner)
    doom = tracker_id(campaign, "Doom")
    # The history's page number is read: each is a drawing of its own.
    addresses = [f"/c/{campaign.pk}/history/?page={n}" for n in range(1, PUSHED_DRAWINGS + 5)]
    messages = pushed(campaign, owner, addresses, ("counter.adjust", {"tracker": doom, "delta": 1}))
    events = sorted(event for event, _data in messages)
    assert events == ["page"] * PUSHED_DRAWINGS + ["version"] * 4
    assert all(data == '{"version": 1}\n\n' for event, data in messages if event == "version")
    # Those phones ask for their page themselves, and get it.
    client = Client()
    client.force_login(owner)
    asked = client.get(addresses[-1], headers={"HX-Request": "true", "X-Live-Refresh": "true"})
    assert asked.status_code == 200
    assert asked["X-Campaign-Version"] == "1"


def test_a_pushed_page_keeps_the_parameters_it_reads():
    owner = make_user("olive")
    campaign = factories.campaign("arkham", owner=owner)
    bag = f"/c/{campaign.pk}/p/bag/"
    [(event, data)] = pushed(campaign, owner, [bag + "?skill=4&junk=1&difficulty=2"], DRAW)
    assert event == "page"
    # What the phone would have drawn for itself: the odds of that test.
    client = Client()
    client.force_login(owner)
    client.cookies["csrftoken"] = CSRF
    headers = {"HX-Request": "true", "X-Live-Refresh": "true"}
    asked = client.get(bag + "?skill=4&difficulty=2", headers=headers).content.decode()
    assert 'name="skill" value="4"' in asked
    assert TOKEN.sub("", json.loads(data)["html"]) == TOKEN.sub("", asked)


def test_the_parameters_each_page_reads():
    assert page_query("campaign", "", "any") == frozenset()
    assert page_query("history", "", "any") == {"page"}
    assert page_query("settings", "", "arkham") == frozenset()
    assert {"skill", "difficulty", "x_skull"} <= page_query("game-page", "bag", "arkham")
    assert page_query("game-page", "round", "arkham") == frozenset()
    assert page_query("game-page", "dice", "eldritch") == {"dice", "clues", "bonus"}
    assert page_query("campaign", "", "aeonsend") == {"q"}
    assert page_query("game-page", "chart", "aeonsend") == {"record"}
    assert page_query("game-page", "no-such-page", "arkham") == frozenset()
