"""What several phones see against a real server: live streams, many taps at once, two server
processes on one database."""

import asyncio
import json
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import httpx
import pytest

from tests.journeys import Phone, Site, wait_until

pytestmark = pytest.mark.server


def read_versions(phone: Phone, campaign: int, start: int, want: int, seen: list[int]):
    """Hold the campaign's stream open until it reports version `want` (or the timeout ends)."""
    with phone.http.stream("GET", f"/c/{campaign}/stream/?v={start}", timeout=15) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data:") and '"version"' in line:
                seen.append(int(re.search(r"\d+", line).group()))
                if seen[-1] >= want:
                    return


def counter_id(phone: Phone, campaign: int, name: str) -> int:
    page = phone.get(f"/c/{campaign}/").text
    match = re.search(r'id="tracker-(\d+)-name">' + re.escape(name) + "<", page)
    return int(match.group(1))


@pytest.fixture
def table(site):
    """An owner with a campaign, and a friend who joined through the invitation."""
    owner, friend = Phone(site.url), Phone(site.url)
    owner.signup(f"owner{secrets.token_hex(4)}")
    campaign = owner.create_campaign("Live table", counters="Taps\nDoom 0 12", notes="on")
    friend.join(owner.invite_path(campaign), "Friend")
    yield owner, friend, campaign
    owner.close()
    friend.close()


def test_a_change_on_one_phone_reaches_the_others_stream(table):
    owner, friend, campaign = table
    taps = counter_id(owner, campaign, "Taps")
    seen: list[int] = []
    listener = threading.Thread(target=read_versions, args=(friend, campaign, 0, 1, seen))
    listener.start()
    response = owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    assert response.status_code == 302
    listener.join(timeout=20)
    assert seen and seen[-1] == 1
    assert "now 1" in friend.get(f"/c/{campaign}/history/").text


def test_the_polling_fallback_reports_the_version(table):
    owner, friend, campaign = table
    taps = counter_id(owner, campaign, "Taps")
    before = friend.get(f"/c/{campaign}/version/").json()["version"]
    owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    assert friend.get(f"/c/{campaign}/version/").json()["version"] == before + 1


def test_a_stranger_gets_no_stream(site, table):
    _owner, _friend, campaign = table
    stranger = Phone(site.url)
    stranger.signup(f"stranger{secrets.token_hex(4)}")
    assert stranger.get(f"/c/{campaign}/stream/").status_code == 404
    assert stranger.get(f"/c/{campaign}/version/").status_code == 404


def test_eight_phones_tapping_at_once_lose_nothing(site):
    owner = Phone(site.url)
    owner.signup(f"host{secrets.token_hex(4)}")
    campaign = owner.create_campaign("Busy table", counters="Taps", notes="on")
    invite = owner.invite_path(campaign)
    page = owner.get(f"/c/{campaign}/").text
    taps = counter_id(owner, campaign, "Taps")
    notes = int(re.search(r'id="tracker-(\d+)-name">Notes<', page).group(1))
    phones = []
    for number in range(8):
        phone = Phone(site.url)
        phone.join(invite, f"Player {number}")
        phone.csrf()
        phones.append(phone)

    rounds = 6
    failures: list[str] = []
    barrier = threading.Barrier(len(phones))

    def play(number: int, phone: Phone) -> None:
        barrier.wait()
        for turn in range(rounds):
            for action, data in (
                ("counter.adjust", {"tracker": taps, "delta": 1}),
                ("notes.add", {"tracker": notes, "text": f"p{number} t{turn}"}),
            ):
                try:
                    response = phone.post(f"/c/{campaign}/do/{action}/", data)
                except httpx.HTTPError as error:
                    failures.append(repr(error))
                    continue
                if response.status_code != 302:
                    failures.append(f"{response.status_code}: {response.text[:200]}")

    threads = [threading.Thread(target=play, args=(n, p)) for n, p in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert failures == []
    sent = len(phones) * rounds * 2
    assert owner.get(f"/c/{campaign}/version/").json()["version"] == sent
    table = owner.get(f"/c/{campaign}/").text
    assert f'<output class="value" aria-live="polite">{len(phones) * rounds}</output>' in table
    for number in range(len(phones)):
        for turn in range(rounds):
            assert f"p{number} t{turn}" in table
    for phone in phones:
        phone.close()


def test_a_change_through_one_server_process_reaches_a_stream_on_another(site_database, site):
    second = Site(site_database)
    try:
        owner, friend = Phone(site.url), Phone(second.url)
        owner.signup(f"first{secrets.token_hex(4)}")
        campaign = owner.create_campaign("Two servers", counters="Taps")
        friend.join(owner.invite_path(campaign), "Across")
        taps = counter_id(owner, campaign, "Taps")
        seen: list[int] = []
        listener = threading.Thread(target=read_versions, args=(friend, campaign, 0, 1, seen))
        listener.start()
        owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
        listener.join(timeout=20)
        assert seen and seen[-1] == 1
    finally:
        second.close()
    assert "Traceback" not in second.output()


def stream_events(
    phone: Phone, campaign: int, start: int, events: list[str], opened: threading.Event
) -> None:
    """Read a stream's event names until the server ends it (or 15 s pass)."""
    with phone.http.stream("GET", f"/c/{campaign}/stream/?v={start}", timeout=15) as response:
        assert response.status_code == 200
        opened.set()
        for line in response.iter_lines():
            if line.startswith("event:"):
                events.append(line.split(":", 1)[1].strip())


def open_stream(phone: Phone, campaign: int) -> tuple[threading.Thread, list[str]]:
    version = phone.get(f"/c/{campaign}/version/").json()["version"]
    events: list[str] = []
    opened = threading.Event()
    reader = threading.Thread(target=stream_events, args=(phone, campaign, version, events, opened))
    reader.start()
    assert opened.wait(timeout=15)
    return reader, events


def member_id(owner: Phone, campaign: int, name: str) -> int:
    page = owner.get(f"/c/{campaign}/members/").text
    row = page[page.index(name) :]
    return int(re.search(r'name="member" value="(\d+)"', row).group(1))


def test_a_removed_members_stream_ends_at_once(table):
    owner, friend, campaign = table
    reader, events = open_stream(friend, campaign)
    member = member_id(owner, campaign, "Friend")
    # Until the removal the stream is open: a change reaches it.
    taps = counter_id(owner, campaign, "Taps")
    owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    # Wait for it to arrive: a removal right after the tap may reach the stream in the same wake-up,
    # and then only the removal is told (the tap is no longer the friend's to see).
    wait_until(lambda: events, timeout=15)
    assert events == ["version"]
    response = owner.post(f"/c/{campaign}/members/remove/", {"member": member, "confirm": "yes"})
    assert response.status_code == 302
    reader.join(timeout=20)
    assert not reader.is_alive(), "the removed member's stream still runs"
    assert events == ["version", "gone"]
    assert friend.get(f"/c/{campaign}/stream/").status_code == 404


def test_deleting_a_campaign_ends_every_stream(table):
    owner, friend, campaign = table
    readers = [open_stream(phone, campaign) for phone in (owner, friend)]
    response = owner.post(f"/c/{campaign}/delete/", {"confirm": "Live table"})
    assert response.status_code == 302, response.text[:300]
    for reader, events in readers:
        reader.join(timeout=20)
        assert not reader.is_alive(), "a stream of the deleted campaign still runs"
        assert events == ["gone"]


def server_threads(site) -> int:
    with open(f"/proc/{site.process.pid}/status") as status:
        return int(next(line for line in status if line.startswith("Threads:")).split()[1])


def test_open_streams_hold_no_thread_each(site, table):
    owner, _friend, campaign = table

    async def hold(count: int) -> tuple[int, int]:
        cookies = dict(owner.http.cookies)
        async with httpx.AsyncClient(base_url=site.url, cookies=cookies, timeout=15) as client:
            streams = [
                await client.send(
                    client.build_request("GET", f"/c/{campaign}/stream/"), stream=True
                )
                for _ in range(count)
            ]
            # Each stream has said its first line: all are open and waiting.
            for response in streams:
                assert response.status_code == 200
                await anext(response.aiter_lines())
            threads = server_threads(site)
            for response in streams:
                await response.aclose()
        return count, threads

    # In a thread of its own: a browser test earlier in this worker leaves Playwright's event
    # loop running in this one, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        _one, with_one = pool.submit(asyncio.run, hold(1)).result()
        _many, with_many = pool.submit(asyncio.run, hold(24)).result()
    # A thread per stream would add 23; the server's pools may start a few of their own.
    assert with_many - with_one < 12


def stream_messages(
    phone: Phone,
    campaign: int,
    query: str,
    until: int,
    found: list[tuple[str, dict]],
    opened: threading.Event | None = None,
) -> None:
    """Read a stream's messages (event, data) until one is at version `until` or more; `opened`
    is set once the stream's first line (its retry interval) has arrived."""
    with phone.http.stream("GET", f"/c/{campaign}/stream/?{query}", timeout=15) as response:
        assert response.status_code == 200
        event = ""
        for line in response.iter_lines():
            if opened is not None:
                opened.set()
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                found.append((event, json.loads(line.split(":", 1)[1])))
                if found[-1][1].get("version", -1) >= until:
                    return


def change_while_streaming(
    owner: Phone, friend: Phone, campaign: int, query: str
) -> list[tuple[str, dict]]:
    """The friend's stream (opened at the current version, with `query`) while the owner taps
    the Taps counter once."""
    version = friend.get(f"/c/{campaign}/version/").json()["version"]
    found: list[tuple[str, dict]] = []
    opened = threading.Event()
    reader = threading.Thread(
        target=stream_messages,
        args=(friend, campaign, f"v={version}&{query}", version + 1, found, opened),
    )
    reader.start()
    # (Once the stream is open: a change before it opens would be sent at its start too.)
    assert opened.wait(15)
    taps = counter_id(owner, campaign, "Taps")
    owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1})
    reader.join(timeout=20)
    assert not reader.is_alive()
    return found


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def test_a_stream_sends_the_page_its_phone_shows_in_its_language(table):
    owner, friend, campaign = table
    friend.http.headers["Accept-Language"] = "ja"
    page = f"/c/{campaign}/"
    found = change_while_streaming(owner, friend, campaign, urlencode({"page": page}))
    event, data = found[-1]
    assert event == "page"
    # What the phone would have fetched itself: the same page, byte for byte, in its language.
    asked = friend.get(page, headers={"HX-Request": "true", "X-Live-Refresh": "true"}).text
    assert data["html"] == asked
    assert "</svg>元に戻す</button>" in data["html"]  # the undo bar, in Japanese
    # Its forms carry no token: the phone sends its page's token in a header, as swap.js does.
    assert set(TOKEN.findall(data["html"])) == {""}
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', friend.get(page).text)[1]
    taps = counter_id(owner, campaign, "Taps")
    response = friend.http.post(
        f"/c/{campaign}/do/counter.adjust/",
        data={"tracker": taps, "delta": 1, "csrfmiddlewaretoken": ""},
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    "page",
    [
        "/c/{campaign}/members/",  # drawn for each phone (who is in it, the address it used)
        "/c/{other}/",  # another campaign's page
        "/c/{campaign}/p/no-such-page/",
        "https://elsewhere.example/c/{campaign}/",
        "/login/",
        "//c/{campaign}/",
        "/c/{campaign}/\x00",
        "x" * 2000,
    ],
)
def test_a_stream_sends_only_the_version_for_a_page_it_does_not_push(table, page):
    owner, friend, campaign = table
    other = friend.create_campaign("Friend's own")
    query = urlencode({"page": page.format(campaign=campaign, other=other)})
    found = change_while_streaming(owner, friend, campaign, query)
    assert [event for event, _data in found] == ["version"]
    assert found[-1][1] == {"version": found[-1][1]["version"]}


def test_changes_answered_on_the_kept_threads_keep_every_guard(site, table):
    """companion/asgi.py answers a change (a command, undo, redo) in one of a few threads kept
    for changes, through the middleware built synchronously: each guard still holds there."""
    owner, friend, campaign = table
    taps = counter_id(owner, campaign, "Taps")
    change = f"/c/{campaign}/do/counter.adjust/"
    # No CSRF token: refused, and nothing changes.
    refused = friend.http.post(change, data={"tracker": taps, "delta": 1})
    assert refused.status_code == 403
    stranger = Phone(site.url)
    stranger.signup(f"stranger{secrets.token_hex(4)}")
    assert stranger.post(change, {"tracker": taps, "delta": 1}).status_code == 404
    stranger.close()
    too_big = friend.post(change, {"tracker": taps, "delta": 1, "text": "x" * 7_000_000})
    assert too_big.status_code == 413
    assert friend.get(f"/c/{campaign}/version/").json()["version"] == 0
    # The answer to a change sent without leaving the page is its regions, in the phone's
    # language; undo and redo go the same way.
    friend.http.headers["Accept-Language"] = "ja"
    answer = friend.post(change, {"tracker": taps, "delta": 1}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert answer.headers["X-Campaign-Version"] == "1"
    assert "</svg>元に戻す</button>" in answer.text
    assert friend.post(f"/c/{campaign}/undo/").status_code == 302
    assert friend.post(f"/c/{campaign}/redo/").status_code == 302
    assert friend.get(f"/c/{campaign}/version/").json()["version"] == 3


def test_only_changes_and_live_refreshes_take_the_kept_threads_in_their_campaigns_lane():
    from django.test import RequestFactory

    from campaigns.views.shared import LIVE_LANES
    from companion.asgi import CHANGE_LANES, kept_threads

    make = RequestFactory()
    for path in ("/c/7/do/counter.adjust/", "/c/7/undo/", "/c/7/redo/"):
        assert kept_threads(make.post(path)) == (CHANGE_LANES, 7)
        assert kept_threads(make.get(path)) is None
    for path in ("/c/7/members/remove/", "/c/7/delete/", "/login/", "/c/7/do/", "/c/x/undo/"):
        assert kept_threads(make.post(path)) is None
    refresh = make.get("/c/7/", headers={"HX-Request": "true", "X-Live-Refresh": "true"})
    assert kept_threads(refresh) == (LIVE_LANES, 7)
    # (what shared.is_live_refresh calls one: live.js sends both headers)
    assert kept_threads(make.get("/c/7/", headers={"X-Live-Refresh": "true"})) is None
    assert kept_threads(make.get("/c/7/")) is None
