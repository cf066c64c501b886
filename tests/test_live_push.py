"""The pages streams push (campaigns/views/live.py): drawn through Django's own handler,
middleware included."""

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

from campaigns import live
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
    assert "Nothing has happened yet." not in data["html"]
    assert data["html"].count("<li") >= 1  # the change, in the history


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
