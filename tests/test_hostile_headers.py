"""No request, from anyone, can hold the live layer (issue 35).

An anonymous live refresh of the home page (`HX-Request` and `X-Live-Refresh`, which phones
send only for a campaign's pages) once never answered, and from then on no live refresh or
stream push of any campaign in that process did: its lane was named None, and None also meant
"no lane ready" (companion/lanes.py). Here every address of the site is asked with every
combination of the live headers, by everyone who could ask, through the site's own ASGI
application; each must answer, none with a server error, and a change on a campaign must then
still reach its streams.
"""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations

import pytest
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns import live
from campaigns.views.display import display_token
from campaigns.views.shared import ANSWERS
from tests import factories
from tests.journeys import asgi_request

pytestmark = pytest.mark.django_db(transaction=True)

# The headers a phone's live layer sends: a live refresh (swap.js's and live.js's), and a stream's.
LIVE_HEADERS = {"HX-Request": "true", "X-Live-Refresh": "true", "Accept": "text/event-stream"}
# Every combination of them, from none to all.
HEADER_SETS = [
    dict(chosen)
    for size in range(len(LIVE_HEADERS) + 1)
    for chosen in combinations(LIVE_HEADERS.items(), size)
]
WHO = ("anonymous", "stranger", "viewer", "member")


def patterns(resolvers=None, prefix: str = "") -> list[str]:
    """Every URL pattern of the site, as its route with its converters."""
    found: list[str] = []
    for entry in resolvers if resolvers is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            found += patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            found.append(prefix + str(entry.pattern))
    return found


def addresses(campaign, token: str) -> list[str]:
    """Every pattern filled in: for a campaign's, this campaign and one that does not exist; a
    made-up address and a static file besides."""
    values = {
        "<slug:game_key>": "any",
        "<slug:page>": "bag",
        "<str:action>": "counter.adjust",
        "<slug:token>": token,
    }
    made = []
    for route in patterns():
        for name, value in values.items():
            route = route.replace(name, value)
        pks = [str(campaign.pk), "987654321"] if "<id:pk>" in route else [""]
        made += ["/" + route.replace("<id:pk>", pk) for pk in pks]
    return [*made, "/no/such/page/", "/static/js/live.js", "/c/1x/"]


def run(coroutine):
    """On an event loop of its own thread (a browser test in this worker may hold this one)."""

    async def whole():
        try:
            # (A live layer held up makes every later request wait out its own bound: the test
            # fails then, rather than the suite waiting for each of them.)
            return await asyncio.wait_for(coroutine, 120)
        finally:
            for each in live.hubs():
                await each.stop()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, whole()).result()


def cookie_of(user) -> str:
    client = factories.client_for(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@pytest.fixture
def table():
    ANSWERS.clear()
    owner, viewer, stranger = (factories.user(name) for name in ("owl", "vera", "stan"))
    campaign = factories.campaign(owner=owner, members={viewer: "viewer"})
    yield (
        campaign,
        owner,
        {
            "anonymous": "",
            "stranger": cookie_of(stranger),
            "viewer": cookie_of(viewer),
            "member": cookie_of(owner),
        },
    )
    ANSWERS.clear()


async def sweep(paths: list[str], who: str, cookie: str) -> list[str]:
    """Every address with every set of live headers, by one who asks: what hung or failed."""
    wrong = []
    for path in paths:
        for headers in HEADER_SETS:
            answer = await asgi_request(path, {**headers, **({"Cookie": cookie} if cookie else {})})
            if answer is None or answer.status is None:
                wrong.append(f"{who} {path} {sorted(headers)}: no answer")
            elif answer.status >= 500:
                wrong.append(f"{who} {path} {sorted(headers)}: {answer.status}")
    return wrong


def change(campaign, user) -> None:
    try:
        doom = factories.tracker_id(campaign, "Doom")
        campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, user)
    finally:
        connection.close()


async def a_change_reaches_the_stream(campaign, owner, cookie: str) -> dict:
    """Open the member's stream of the campaign page, make a change, and read the stream until
    the change's news arrives."""
    inbox: asyncio.Queue[bytes] = asyncio.Queue()

    def heard(body: bytes) -> bool:
        inbox.put_nowait(body)
        return b"event: page" in body or b"event: version" in body

    page = f"/c/{campaign.pk}/"
    reading = asyncio.ensure_future(
        asgi_request(
            f"/c/{campaign.pk}/stream/?v={campaign.version}&page={page}",
            {"Cookie": cookie},
            read_until=heard,
        )
    )
    while b"retry:" not in await inbox.get():  # the stream is open and listening
        pass
    await asyncio.to_thread(change, campaign, owner)
    answer = await reading
    assert answer is not None, "the stream heard nothing of the change"
    event = next(part for part in answer.body.decode().split("\n\n") if "data:" in part)
    return json.loads(event.split("data: ", 1)[1])


@pytest.mark.parametrize("who", WHO)
def test_no_address_and_no_live_header_holds_the_live_layer(table, who):
    campaign, owner, cookies = table
    before = campaign.version
    paths = addresses(campaign, display_token(campaign))

    async def play():
        wrong = await sweep(paths, who, cookies[who])
        news = await a_change_reaches_the_stream(campaign, owner, cookies["member"])
        refresh = await asgi_request(
            f"/c/{campaign.pk}/",
            {"HX-Request": "true", "X-Live-Refresh": "true", "Cookie": cookies["member"]},
        )
        return wrong, news, refresh

    wrong, news, refresh = run(play())
    assert wrong == []
    assert news["version"] == before + 1
    assert refresh is not None and refresh.status == 200
    assert refresh.headers["x-campaign-version"] == str(before + 1)


def test_an_anonymous_live_refresh_of_the_home_page_gets_the_plain_page(table):
    campaign, owner, cookies = table

    async def play():
        first = await asgi_request("/", {"HX-Request": "true", "X-Live-Refresh": "true"})
        news = await a_change_reaches_the_stream(campaign, owner, cookies["member"])
        return first, news

    before = campaign.version
    first, news = run(play())
    assert first is not None
    assert first.status == 200 and b'href="/signup/"' in first.body  # the home page, as ever
    assert news["version"] == before + 1
