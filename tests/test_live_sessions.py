"""A stream follows its session: it pushes whole pages, so it ends as soon as its phone could not
ask for them itself (logged out, the session expired or flushed by a new password, the member
removed or given another role), and the phone then shows the log-in page or its new role.
(A removed member's stream: tests/test_live.py.)"""

import asyncio
import contextlib
import json
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode, urlparse

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient, Client

from campaigns import live
from campaigns.models import Membership
from campaigns.views.display import display_url
from tests.factories import make_campaign, make_user
from tests.journeys import Phone, Site, next_event

server = pytest.mark.server


class Stream:
    """A phone's stream of a campaign, read in a thread: its messages (event, data), until the
    server ends it."""

    def __init__(self, phone: Phone, campaign: int, address: str = "", **query: str) -> None:
        """`address`: another stream than the member's (the table display's)."""
        if not address:
            asked = phone.get(f"/c/{campaign}/version/")
            version = asked.json()["version"] if asked.status_code == 200 else 0
            address = f"/c/{campaign}/stream/?" + urlencode({"v": version, **query})
        self.address = address
        self.phone = phone
        self.messages: list[tuple[str, dict]] = []
        self.retry = False  # the stream opened as a stream (not refused at once)
        self.news = threading.Condition()
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()
        assert self.opened.wait(timeout=15), "the stream did not open"

    def read(self) -> None:
        with self.phone.http.stream("GET", self.address, timeout=20) as response:
            if response.status_code != 200:
                return
            self.response = response
            self.opened.set()
            event = ""
            try:
                for line in response.iter_lines():
                    if line.startswith("retry:"):
                        self.retry = True
                    elif line.startswith("event:"):
                        event = line.split(":", 1)[1].strip()
                    elif line.startswith("data:"):
                        with self.news:
                            self.messages.append((event, json.loads(line.split(":", 1)[1])))
                            self.news.notify_all()
            except httpx.HTTPError:
                return  # closed by the test

    def close(self) -> None:
        """The phone leaves a stream that is still open. (Its reading thread is left to end by
        itself: it notices only at the server's next keep-alive, 15 s on.)"""
        self.response.close()

    def wait_for(self, count: int) -> list[tuple[str, dict]]:
        """Wait until the stream has said `count` messages."""
        with self.news:
            assert self.news.wait_for(lambda: len(self.messages) >= count, timeout=15)
        return self.messages

    def ended(self) -> list[tuple[str, dict]]:
        """Wait until the server ends the stream: all it said."""
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "the stream still runs"
        return self.messages


def counter_id(phone: Phone, campaign: int, name: str) -> int:
    page = phone.get(f"/c/{campaign}/").text
    return int(re.search(r'id="tracker-(\d+)-name">' + name + "<", page).group(1))


def tap(owner: Phone, campaign: int) -> None:
    taps = counter_id(owner, campaign, "Taps")
    response = owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    assert response.status_code == 302


def sent_to_login(phone: Phone, campaign: int) -> bool:
    response = phone.get(f"/c/{campaign}/")
    return response.status_code == 302 and response.headers["location"].startswith("/login/")


@pytest.fixture
def table(site):
    """An owner with a campaign, and a friend who joined through the invitation."""
    owner, friend = Phone(site.url), Phone(site.url)
    owner.signup(f"owner{secrets.token_hex(4)}")
    campaign = owner.create_campaign("Session table", counters="Taps")
    friend.join(owner.invite_path(campaign), "Friend")
    yield owner, friend, campaign
    owner.close()
    friend.close()


LOGIN = ("gone", {"why": "login"})


@server
def test_logging_out_ends_the_stream_that_pushed_pages(table):
    owner, friend, campaign = table
    stream = Stream(friend, campaign, page=f"/c/{campaign}/")
    tap(owner, campaign)
    assert stream.wait_for(1)[0][0] == "page"  # until then, pages come down the stream
    assert friend.post("/logout/").status_code == 302
    assert stream.ended()[1:] == [LOGIN]
    tap(owner, campaign)  # nothing more reaches the phone: its stream is over
    assert len(stream.messages) == 2
    assert sent_to_login(friend, campaign)
    # Opened again without a session, the stream says so at once (the phone then reloads).
    assert Stream(friend, campaign).ended() == [LOGIN]


@server
def test_a_stream_ends_when_its_session_expires(site_database, table):
    _owner, friend, campaign = table
    session = friend.http.cookies["sessionid"]
    site_database.shell(
        "from datetime import timedelta\n"
        "from django.contrib.sessions.models import Session\n"
        "from django.utils import timezone\n"
        f"Session.objects.filter(pk={session!r})"
        ".update(expire_date=timezone.now() + timedelta(seconds=4))"
    )
    stream = Stream(friend, campaign)
    assert stream.ended() == [LOGIN]
    assert stream.retry, "the stream was refused as it opened, not ended when the session expired"
    assert sent_to_login(friend, campaign)


@server
def test_a_new_password_ends_the_streams_of_the_accounts_other_sessions(site, table):
    owner, _friend, campaign = table
    elsewhere = Phone(site.url)
    elsewhere.login(owner.username, owner.password)
    stream = Stream(owner, campaign, page=f"/c/{campaign}/")
    response = elsewhere.post(
        "/account/",
        {
            "current_password": owner.password,
            "username": owner.username,
            "password": "new-" + secrets.token_hex(8),
        },
    )
    assert response.status_code == 302, response.text[:500]
    assert stream.ended() == [LOGIN]
    assert sent_to_login(owner, campaign)
    # The session that changed the password goes on.
    assert elsewhere.get(f"/c/{campaign}/").status_code == 200
    elsewhere.close()


@server
def test_saving_an_account_without_a_new_password_leaves_its_streams_open(table):
    owner, friend, campaign = table
    stream = Stream(owner, campaign)
    # The owner's account is saved (the name typed on joining the friend's campaign): its
    # stream looks again at its session, and goes on.
    other = friend.create_campaign("Friend's table")
    owner.join(friend.invite_path(other), "Olive")
    tap(owner, campaign)
    assert stream.wait_for(1) == [("version", {"version": 1})]
    stream.close()


def member_id(owner: Phone, campaign: int, name: str) -> int:
    page = owner.get(f"/c/{campaign}/members/").text
    row = page[page.index(name) :]
    return int(re.search(r'name="member" value="(\d+)"', row).group(1))


@server
def test_a_lowered_role_ends_the_stream_and_the_page_shows_the_new_role(table):
    owner, friend, campaign = table
    stream = Stream(friend, campaign, role="player", page=f"/c/{campaign}/")
    member = member_id(owner, campaign, "Friend")
    response = owner.post(f"/c/{campaign}/members/role/", {"member": member, "role": "viewer"})
    assert response.status_code == 302
    assert stream.ended() == [("gone", {"why": "role"})]
    assert "You are a viewer" in friend.get(f"/c/{campaign}/").text
    # A phone that slept through the change opens its stream with the role its page shows:
    # it is told at once. The viewer's page's own stream stays open and hears the news.
    assert Stream(friend, campaign, role="player").ended() == [("gone", {"why": "role"})]
    viewer = Stream(friend, campaign, role="viewer")
    tap(owner, campaign)
    assert viewer.wait_for(1) == [("version", {"version": 1})]
    viewer.close()


@pytest.fixture(scope="module")
def second_process(site_database):
    """Another server process on the same database, as the README's hosting runs several."""
    second = Site(site_database)
    yield second
    second.close()
    assert "Traceback" not in second.output()


@server
def test_logging_out_through_another_server_process_ends_the_stream(second_process, site, table):
    _owner, friend, campaign = table
    elsewhere = Phone(second_process.url)
    elsewhere.http.cookies.update(friend.http.cookies)  # the same browser, another server
    stream = Stream(friend, campaign)
    assert elsewhere.post("/logout/").status_code == 302
    assert stream.ended() == [LOGIN]
    elsewhere.close()


@server
def test_a_new_invitation_through_another_server_process_retires_the_display(
    second_process, site, table
):
    """A table display streaming from one process learns that a new invitation, made through
    another, retired its link: on PostgreSQL from the notice, on SQLite from the look at the
    changed database file, which reads the invitations too (it read only versions, sessions
    and roles, so the display streamed on until its lifetime)."""
    owner, _friend, campaign = table
    members = owner.get(f"/c/{campaign}/members/").text
    link = urlparse(re.search(r'id="display-link">([^<]+)<', members).group(1)).path
    tablet = Phone(second_process.url)
    display = Stream(tablet, campaign, address=f"{link}stream/?v=0")
    assert owner.post(f"/c/{campaign}/members/invite/").status_code == 302
    assert display.ended() == [("gone", {"why": "retired"})]
    assert tablet.get(link).status_code == 404
    tablet.close()


# The same in one process, without a server (run by `make test-fast` too).


def lower_role(campaign, user) -> None:
    try:
        membership = Membership.objects.get(campaign=campaign, user=user)
        membership.role = Membership.Role.VIEWER
        membership.save(update_fields=["role"])
    finally:
        connection.close()  # this thread's, so the test database can be dropped at the end


def new_password(user) -> None:
    try:
        user.set_password("another-password-2")
        user.save()
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_in_one_process_each_stream_ends_with_its_own_session_or_role():
    owner = make_user("olive")
    campaign = make_campaign(owner)
    leaving, demoted, renewed, staying = (make_user(n) for n in ("lee", "dee", "ren", "sta"))
    for user in (leaving, demoted, renewed, staying):
        Membership.objects.create(campaign=campaign, user=user)

    async def table() -> dict[str, str]:
        clients, pending = {}, {}
        # Everyone logs in before the first stream opens: the hub's first look (in a thread of
        # its own) reads the sessions, and on the in-memory test database a reader locks the
        # table against a log-in's write ("database table is locked: django_session").
        people = {"leaving": leaving, "demoted": demoted, "renewed": renewed, "staying": staying}
        for name, user in people.items():
            clients[name] = AsyncClient()
            await clients[name].aforce_login(user)
        for name in ("leaving", "demoted", "renewed"):
            response = await clients[name].get(f"/c/{campaign.pk}/stream/?v=0&role=player")
            assert response.status_code == 200
            stream = aiter(response.streaming_content)
            assert (await anext(stream)).startswith(b"retry:")
            pending[name] = asyncio.ensure_future(next_event(stream))
        # Another member's session is untouched by all this: its stream hears the next change.
        response = await clients["staying"].get(f"/c/{campaign.pk}/stream/?v=0&role=player")
        stream = aiter(response.streaming_content)
        await anext(stream)
        pending["staying"] = asyncio.ensure_future(next_event(stream))

        await clients["leaving"].alogout()
        await sync_to_async(lower_role)(campaign, demoted)
        await sync_to_async(new_password)(renewed)
        ended = {}
        for name in ("leaving", "demoted", "renewed"):
            ended[name] = await asyncio.wait_for(pending[name], timeout=10)
        assert not pending["staying"].done()
        pending["staying"].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pending["staying"]
        await stream.aclose()
        await live.hub().stop()
        return ended

    # In a thread of its own: a browser test earlier in this worker leaves Playwright's event
    # loop running in this one, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        ended = pool.submit(asyncio.run, table()).result()
    assert ended == {
        "leaving": 'event: gone\ndata: {"why": "login"}\n\n',
        "demoted": 'event: gone\ndata: {"why": "role"}\n\n',
        "renewed": 'event: gone\ndata: {"why": "login"}\n\n',
    }


@pytest.mark.django_db(transaction=True)
def test_a_new_invitation_ends_the_table_displays_stream_not_the_members():
    owner = make_user("olive")
    campaign = make_campaign(owner)
    display = display_url(campaign)

    async def table() -> tuple[str, bool]:
        # Logged in before the first stream opens (the hub's first look reads the sessions).
        member = AsyncClient()
        await member.aforce_login(owner)
        shown = await AsyncClient().get(f"{display}stream/?v=0")
        assert shown.status_code == 200
        screen = aiter(shown.streaming_content)
        assert (await anext(screen)).startswith(b"retry:")
        phone = aiter((await member.get(f"/c/{campaign.pk}/stream/?v=0")).streaming_content)
        await anext(phone)
        pending = asyncio.ensure_future(next_event(phone))
        await sync_to_async(renew)(campaign)
        said = await asyncio.wait_for(next_event(screen), timeout=10)
        still = not pending.done()
        pending.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pending
        await live.hub().stop()
        return said, still

    with ThreadPoolExecutor(1) as pool:
        said, member_still_streams = pool.submit(asyncio.run, table()).result()
    assert said == 'event: gone\ndata: {"why": "retired"}\n\n'
    assert member_still_streams
    # The retired link is not found any more (live.js loads it again and shows that).
    assert Client().get(display).status_code == 404


def renew(campaign) -> None:
    try:
        campaign.rotate_invite()
    finally:
        connection.close()
