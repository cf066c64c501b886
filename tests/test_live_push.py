"""The pages streams push (campaigns/live_push.py, campaigns/views/live.py): drawn through
Django's own handler, middleware included, once per push key and version, and sent as one
message of the same bytes to every phone of the key; a phone showing exactly the key's previous
version gets only the regions that changed."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.signals import request_started
from django.db import connection
from django.middleware.locale import LocaleMiddleware
from django.test import AsyncClient, RequestFactory

from campaigns import live, live_push
from campaigns.models import Membership
from campaigns.views.live import draw_through_django, push_environ
from campaigns.views.shared import ANSWERS, PUSH
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _nothing_shared_yet():
    ANSWERS.clear()
    yield
    ANSWERS.clear()


class Pushes:
    """Counts the requests Django's handler starts for a stream's push (request_started)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, sender, environ=None, **kwargs) -> None:
        if environ is not None and environ.get(PUSH) is True:
            self.count += 1

    def __enter__(self):
        request_started.connect(self)
        return self

    def __exit__(self, *exc) -> None:
        request_started.disconnect(self)


def doom(campaign) -> int:
    campaign.refresh_from_db()
    return next(t["id"] for t in campaign.state["trackers"] if t["name"] == "Doom")


def change(campaign, user) -> None:
    """One change, in a thread of its own (its connection closed after)."""
    try:
        campaign.apply("counter.adjust", {"tracker": doom(campaign), "delta": 1}, user)
    finally:
        connection.close()


async def phones(user, count: int, cookies: dict[str, str] | None = None) -> list[AsyncClient]:
    """`count` phones of one user: one log-in, its cookies on every phone."""
    first = AsyncClient()
    await first.aforce_login(user)
    for name, value in (cookies or {}).items():
        first.cookies[name] = value
    made = [first]
    for _n in range(count - 1):
        client = AsyncClient()
        client.cookies = SimpleCookie(first.cookies)
        made.append(client)
    return made


async def open_stream(client: AsyncClient, campaign, shown: int, page: str):
    response = await client.get(f"/c/{campaign.pk}/stream/", {"v": shown, "page": page})
    assert response.status_code == 200
    stream = aiter(response.streaming_content)
    assert (await anext(stream)).startswith(b"retry:")
    return stream


async def next_message(stream) -> tuple[str, dict, bytes]:
    """The stream's next message: its event, its data and its bytes."""
    while True:
        chunk = await anext(stream)
        if chunk.startswith(b"event:"):
            event, data = chunk.decode().split("\n", 1)
            return event.removeprefix("event: "), json.loads(data.removeprefix("data: ")), chunk


def run(table):
    """Run the coroutine in a thread of its own (a browser test earlier in this worker may
    leave Playwright's event loop running in this one), and stop the hub after it."""

    async def whole():
        try:
            return await table()
        finally:
            await live.hub().stop()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, whole()).result()


def pushed_after_a_change(campaign, user, clients: list[AsyncClient], page: str) -> list:
    """What streams on `page` from `clients` get when the campaign changes once."""

    async def table():
        streams = [
            await open_stream(client, campaign, campaign.version, page) for client in clients
        ]
        waiting = [asyncio.ensure_future(next_message(stream)) for stream in streams]
        await asyncio.to_thread(change, campaign, user)
        got = await asyncio.wait_for(asyncio.gather(*waiting), timeout=60)
        for stream in streams:
            await stream.aclose()
        return got

    return run(table)


def test_fifty_phones_on_one_page_get_one_drawing_and_the_same_message():
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    clients = run(lambda: phones(owner, 50))
    with Pushes() as pushes:
        got = pushed_after_a_change(campaign, owner, clients, f"/c/{campaign.pk}/")
    assert pushes.count == 1
    assert {event for event, _data, _raw in got} == {"page"}
    assert len({raw for _event, _data, raw in got}) == 1  # the same bytes for every phone
    data = got[0][1]
    assert data["version"] == 1
    assert '<output class="value" aria-live="polite">1</output>' in data["html"]
    assert 'name="csrfmiddlewaretoken" value=""' in data["html"]


def test_phones_in_two_languages_get_two_drawings():
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)

    async def both():
        english = await phones(owner, 3)
        japanese = await phones(owner, 3, {"django_language": "ja"})
        return english + japanese

    clients = run(both)
    with Pushes() as pushes:
        got = pushed_after_a_change(campaign, owner, clients, f"/c/{campaign.pk}/")
    assert pushes.count == 2
    english, japanese = {raw for _e, _d, raw in got[:3]}, {raw for _e, _d, raw in got[3:]}
    assert len(english) == len(japanese) == 1
    assert english != japanese
    assert "</svg>元に戻す</button>" in got[3][1]["html"]  # the undo bar, in Japanese
    assert "</svg>元に戻す</button>" not in got[0][1]["html"]


def test_a_push_goes_through_the_middleware(monkeypatch):
    """A push is the live refresh the phone would ask for, handled by Django's own handler:
    the session and locale middleware see it (the environ key no client can send reaches the
    view in request.META), and the page is in the language the phone's cookie asks for."""
    seen = []
    session_request = SessionMiddleware.process_request
    locale_response = LocaleMiddleware.process_response

    def spied_session(self, request):
        seen.append(("session", request.META.get(PUSH), request.path))
        return session_request(self, request)

    def spied_locale(self, request, response):
        seen.append(("locale", request.META.get(PUSH), response.status_code))
        return locale_response(self, request, response)

    monkeypatch.setattr(SessionMiddleware, "process_request", spied_session)
    monkeypatch.setattr(LocaleMiddleware, "process_response", spied_locale)
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    clients = run(lambda: phones(owner, 1, {"django_language": "ja"}))
    history = f"/c/{campaign.pk}/history/"
    got = pushed_after_a_change(campaign, owner, clients, history)
    assert ("session", True, history) in seen
    assert ("locale", True, 200) in seen
    event, data, _raw = got[0]
    assert event == "page"
    assert "</svg>元に戻す</button>" in data["html"]  # the undo bar, in Japanese


def test_a_push_for_a_removed_member_draws_nothing():
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("any", owner=owner, members={friend: Membership.Role.PLAYER})
    client = run(lambda: phones(friend, 1))[0]
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    stream_request = RequestFactory().get(f"/c/{campaign.pk}/stream/", HTTP_COOKIE=cookie)
    environ = push_environ(stream_request, f"/c/{campaign.pk}/", "")
    drawn = draw_through_django(environ)
    assert drawn is not None
    assert drawn[0] == campaign.version
    assert "Doom" in drawn[1]
    Membership.objects.filter(campaign=campaign, user=friend).delete()
    ANSWERS.clear()
    assert draw_through_django(environ) is None


def test_a_phone_at_the_previous_version_gets_only_what_changed(monkeypatch):
    """The server side of sending only the changed regions: per push key, the previous
    version's page is kept; a phone showing exactly that version gets the delta, any other
    phone the whole page."""
    compared = []

    def delta(before: str, after: str) -> str:
        compared.append((before, after))
        return "<p>only what changed</p>"

    monkeypatch.setattr("campaigns.live_delta.delta", delta)
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner)
    page = f"/c/{campaign.pk}/"

    async def table():
        first, at_one, at_zero = await phones(owner, 3)
        watching = await open_stream(first, campaign, 0, page)
        waiting = asyncio.ensure_future(next_message(watching))
        await asyncio.to_thread(change, campaign, owner)
        one = await asyncio.wait_for(waiting, timeout=30)
        waiting = asyncio.ensure_future(next_message(watching))
        await asyncio.to_thread(change, campaign, owner)
        two = await asyncio.wait_for(waiting, timeout=30)
        # Two more phones open their streams now, one showing version 1, one version 0.
        late = await open_stream(at_one, campaign, 1, page)
        old = await open_stream(at_zero, campaign, 0, page)
        got = [one, two, await next_message(late), await next_message(old)]
        for stream in (watching, late, old):
            await stream.aclose()
        return got

    one, two, late, old = run(table)
    assert one[1]["version"] == 1 and "from" not in one[1]  # nothing kept before: whole
    assert two[1] == {"version": 2, "from": 1, "html": "<p>only what changed</p>"}
    assert late[2] == two[2]  # the same message, for the phone at version 1
    assert old[1]["version"] == 2 and "from" not in old[1]
    assert '<output class="value" aria-live="polite">2</output>' in old[1]["html"]
    assert len(compared) == 1
    assert compared[0][0] == one[1]["html"] and compared[0][1] == old[1]["html"]


def test_beyond_the_bound_of_drawings_a_version_a_push_is_the_version_only():
    """The event loop's side of the bound (campaigns/views/shared.py's PUSHED_DRAWINGS): a
    key past it is not drawn."""
    calls = []

    def draw():
        calls.append(1)
        return 3, "<p>page</p>"

    async def table():
        hub = live.Hub(asyncio.get_running_loop())
        got = [
            await live_push.pushed(hub, 1, 3, ("page", n), draw)
            for n in range(live_push.PUSHED_DRAWINGS + 2)
        ]
        again = await live_push.pushed(hub, 1, 3, ("page", 0), draw)
        return got, again

    got, again = run(table)
    assert [pushed is None for pushed in got] == [False] * live_push.PUSHED_DRAWINGS + [True] * 2
    assert again is got[0]  # kept: the same message, not drawn again
    assert len(calls) == live_push.PUSHED_DRAWINGS


def test_the_pages_kept_for_the_changes_are_those_of_the_keys_still_drawn():
    """A key no stream asks for any more (a phone that moved to another page, or an address
    tried once) does not keep its page for the next version's changes: memory follows the
    phones, not every address ever shown."""

    def draw_at(version):
        return lambda: (version, f"<p>page {version}</p>")

    async def table():
        hub = live.Hub(asyncio.get_running_loop())
        for n in range(live_push.PUSHED_DRAWINGS):
            await live_push.pushed(hub, 1, 3, ("page", n), draw_at(3))
        kept = [set(hub.boards[1].last)]
        for version in (4, 5):
            await live_push.pushed(hub, 1, version, ("page", 0), draw_at(version))
            kept.append(set(hub.boards[1].last))
        return kept

    at_three, at_four, at_five = run(table)
    assert at_three == {("page", n) for n in range(live_push.PUSHED_DRAWINGS)}
    assert at_four == at_three  # all drawn at 3, the version before
    assert at_five == {("page", 0)}
