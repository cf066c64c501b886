"""Fair share: one busy campaign never makes another wait behind it (companion/lanes.py), and
changes faster than a person taps are refused before any work (companion/taps.py)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings

from companion import taps
from companion.lanes import Busy, Lanes
from companion.taps import Taps, too_fast
from tests import factories
from tests.journeys import until


def run(coroutine):
    """asyncio.run in a thread of its own: a browser test earlier in this worker leaves
    Playwright's event loop running in this one, where asyncio.run() is refused."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def run_lanes(lanes: Lanes, plan: list[str]) -> tuple[list[str], int]:
    """Queue one piece of work per entry of `plan` (its lane's name), all at once, and return
    the order they ran in and the most pieces of one lane that ran at the same time."""
    order: list[str] = []
    running: dict[str, int] = {}
    most = 0
    lock = threading.Lock()

    def work(lane: str) -> str:
        nonlocal most
        with lock:
            running[lane] = running.get(lane, 0) + 1
            most = max(most, running[lane])
            order.append(lane)
        threading.Event().wait(0.01)  # holds the thread a moment, as a draw does
        with lock:
            running[lane] -= 1
        return lane

    async def main() -> list[str]:
        return await asyncio.gather(*(lanes.run(lane, work, lane) for lane in plan))

    answers = run(main())
    assert answers == plan  # each caller gets its own work's answer
    return order, most


def test_a_campaign_with_one_tap_goes_before_the_rest_of_a_busy_campaigns_queue():
    order, _ = run_lanes(Lanes(1, per_lane=1, name="t", wait=30), ["busy"] * 10 + ["quiet"])
    assert order.index("quiet") <= 1  # not eleventh, as first come first served had it


def test_the_lanes_take_turns():
    order, _ = run_lanes(Lanes(1, per_lane=1, name="t", wait=30), ["a"] * 4 + ["b"] * 4 + ["c"] * 4)
    assert order[:6] == ["a", "b", "c", "a", "b", "c"]


def test_a_lane_never_holds_more_than_its_share_of_the_threads():
    _, most = run_lanes(Lanes(4, per_lane=1, name="t", wait=30), ["busy"] * 12)
    assert most == 1
    _, most = run_lanes(Lanes(4, per_lane=2, name="t", wait=30), ["busy"] * 12)
    assert most == 2


def test_an_error_reaches_its_caller_and_the_lane_goes_on():
    lanes = Lanes(1, per_lane=1, name="t", wait=30)

    def fails() -> None:
        raise ValueError("no")

    async def main() -> str:
        with pytest.raises(ValueError):
            await lanes.run("a", fails)
        return await lanes.run("a", str, 5)

    assert run(main()) == "5"


def test_a_lane_named_none_is_a_lane_like_any_other():
    """The home page's live refresh once went into a lane named None, which also meant "no lane
    ready": it never ran, and no lane after it did."""
    order, _ = run_lanes(Lanes(1, per_lane=1, name="t", wait=30), [None, "a", None, "b"])
    assert sorted(order, key=str) == [None, None, "a", "b"]


def test_no_work_waits_in_the_lanes_past_their_wait_and_what_waited_is_never_run():
    lanes = Lanes(1, per_lane=1, name="t", wait=0.3)
    ran: list[str] = []
    gate, started = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        gate.wait(10)  # a thread the database holds up

    async def main() -> list[str]:
        said = []
        held = asyncio.ensure_future(lanes.run("a", hold))
        assert await until(started.is_set)
        for lane in ("a", "b"):  # behind the held thread: its own lane's, and another's
            try:
                await lanes.run(lane, ran.append, lane)
            except Busy:
                said.append(lane)
        with pytest.raises(Busy):
            await held  # the held work's own caller is answered too
        gate.set()
        assert await until(lambda: lanes.busy == 0)  # the thread back once the work returns
        await lanes.run("c", ran.append, "c")
        return said

    assert run(main()) == ["a", "b"]
    assert ran == ["c"]


def test_work_whose_caller_went_away_is_never_run():
    lanes = Lanes(1, per_lane=1, name="t", wait=30)
    ran: list[str] = []
    gate = threading.Event()

    started = threading.Event()

    def hold() -> None:
        started.set()
        gate.wait(5)

    async def main() -> None:
        first = asyncio.ensure_future(lanes.run("a", hold))
        gone = asyncio.ensure_future(lanes.run("a", ran.append, "gone"))
        assert await until(started.is_set)  # the first holds the lane; the second waits its turn
        gone.cancel()
        gate.set()
        await first
        await lanes.run("a", ran.append, "kept")

    run(main())
    assert ran == ["kept"]


def test_a_bucket_lets_a_persons_pace_through_and_refuses_a_scripts():
    taps = Taps()
    # A burst of twice the rate, then the rate.
    assert all(taps.allow("phone", 8, now=100.0) for _ in range(16))
    assert not taps.allow("phone", 8, now=100.0)
    assert taps.allow("phone", 8, now=100.125)  # an eighth of a second: one more tap
    assert not taps.allow("phone", 8, now=100.125)
    # Tapping at a person's pace (5 a second) for a minute is never refused.
    assert all(taps.allow("person", 8, now=200 + n / 5) for n in range(300))
    # Another member's bucket is their own.
    assert taps.allow("other", 8, now=100.125)


def test_a_refusal_says_too_many_taps_in_the_phones_language(rf, settings):
    settings.COMPANION_TAPS_PER_SECOND = 1
    request = rf.post("/c/3/do/bag.draw/", HTTP_ACCEPT_LANGUAGE="ja", HTTP_HX_REQUEST="true")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = "a-session-of-its-own"
    assert too_fast(request, 3) is None
    assert too_fast(request, 3) is None
    refusal = too_fast(request, 3)
    assert refusal is not None and refusal.status_code == 429
    assert "タップが多すぎます。少し待ってから" in refusal.content.decode()
    assert too_fast(request, 4) is None  # another campaign: another bucket
    stranger = rf.post("/c/3/do/bag.draw/")  # no session: refused later, as a stranger
    assert all(too_fast(stranger, 3) is None for _ in range(5))


def member_tap(rf, settings, session: str, campaign: int):
    """A change to `campaign` from the phone holding `session`: None when it goes through."""
    request = rf.post(f"/c/{campaign}/do/counter.adjust/", HTTP_HX_REQUEST="true")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = session
    return too_fast(request, campaign)


def test_a_campaigns_members_together_are_held_to_its_ceiling_each_under_their_own(
    rf, settings, monkeypatch
):
    """Four guests joined from one person's invitation are four members: each has their own
    pace, and the campaign a ceiling for all of them together (companion/taps.py)."""
    settings.COMPANION_TAPS_PER_SECOND = 2  # a member's burst: 4 taps
    settings.COMPANION_CAMPAIGN_TAPS_PER_SECOND = 8  # the campaign's: 16 taps
    monkeypatch.setattr(taps, "TAPS", Taps(clock=lambda: 100.0))  # no time passes
    for guest in range(5):  # each has changed the campaign before, as its member
        taps.TAPS.member((f"guest-{guest}", 3))
    taps.TAPS.member(("guest-0", 4))
    answers = [
        member_tap(rf, settings, f"guest-{guest}", 3) for _ in range(4) for guest in range(5)
    ]
    assert answers[:16] == [None] * 16
    refused = answers[16:]  # each guest's fourth tap: under their own 4, over the campaign's 16
    assert all(answer is not None and answer.status_code == 429 for answer in refused)
    assert all(answer["Retry-After"] == "1" for answer in refused)
    assert "Too many taps" in refused[0].content.decode()
    # Another campaign's members tap as usual, one of these guests among them.
    assert member_tap(rf, settings, "guest-0", 4) is None
    assert member_tap(rf, settings, "elsewhere", 4) is None


def test_one_member_past_their_own_pace_uses_none_of_the_campaigns_taps(rf, settings, monkeypatch):
    settings.COMPANION_TAPS_PER_SECOND = 2
    settings.COMPANION_CAMPAIGN_TAPS_PER_SECOND = 8
    monkeypatch.setattr(taps, "TAPS", Taps(clock=lambda: 100.0))
    for member in ["script", "friend-0", "friend-1", "friend-2", "friend-3"]:
        taps.TAPS.member((member, 3))
    script = [member_tap(rf, settings, "script", 3) for _ in range(40)]
    assert script.count(None) == 4  # their own burst, then refused
    # The other 12 of the campaign's 16 are left for the others.
    others = [member_tap(rf, settings, f"friend-{n}", 3) for n in range(3) for _ in range(4)]
    assert others == [None] * 12
    assert member_tap(rf, settings, "friend-3", 3) is not None


def test_a_campaign_ceiling_of_0_is_none(rf, settings, monkeypatch):
    settings.COMPANION_TAPS_PER_SECOND = 2
    settings.COMPANION_CAMPAIGN_TAPS_PER_SECOND = 0
    monkeypatch.setattr(taps, "TAPS", Taps(clock=lambda: 100.0))
    for guest in range(10):
        taps.TAPS.member((f"guest-{guest}", 3))
    answers = [member_tap(rf, settings, f"guest-{n}", 3) for n in range(10) for _ in range(4)]
    assert answers == [None] * 40


def test_made_up_sessions_use_none_of_a_campaigns_taps(rf, settings, monkeypatch):
    """Nothing is looked up before the buckets: a stranger may send changes under sessions made
    up one after another. They are refused later as strangers', and must not keep the
    campaign's members out meanwhile."""
    settings.COMPANION_TAPS_PER_SECOND = 2
    settings.COMPANION_CAMPAIGN_TAPS_PER_SECOND = 8
    monkeypatch.setattr(taps, "TAPS", Taps(clock=lambda: 100.0))
    taps.TAPS.member(("olive", 3))
    assert all(member_tap(rf, settings, f"made-up-{n}", 3) is None for n in range(100))
    assert [member_tap(rf, settings, "olive", 3) for _ in range(4)] == [None] * 4


def test_a_members_change_counts_them_towards_the_ceiling_and_a_strangers_does_not(db, monkeypatch):
    monkeypatch.setattr(taps, "TAPS", Taps())
    owner = factories.user("olive")
    campaign = factories.make_campaign(owner)
    counter = next(t for t in campaign.state["trackers"] if t["kind"] == "counter")
    change = f"/c/{campaign.pk}/do/counter.adjust/"
    member = factories.client_for(owner)
    stranger = factories.client_for(factories.user("fern"))
    assert member.post(change, {"tracker": counter["id"], "delta": 1}).status_code == 302
    assert stranger.post(change, {"tracker": counter["id"], "delta": 1}).status_code == 404
    session = member.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert list(taps.TAPS.members) == [(session, campaign.pk)]


def test_the_campaigns_ceiling_is_four_members_pace_unless_set():
    from companion import settings as site

    assert "COMPANION_CAMPAIGN_TAPS_PER_SECOND" not in os.environ
    assert site.COMPANION_CAMPAIGN_TAPS_PER_SECOND == 4 * site.COMPANION_TAPS_PER_SECOND


def test_the_buckets_of_members_and_campaigns_gone_quiet_are_forgotten():
    now = [100.0]
    bucket = Taps(clock=lambda: now[0])
    for n in range(50):
        assert bucket.allow_all([((f"guest-{n}", n), 8), ((n,), 32)])
    assert len(bucket.buckets) == 100
    now[0] += taps.IDLE + 1
    assert bucket.allow_all([(("guest-0", 0), 8), ((0,), 32)])
    assert set(bucket.buckets) == {("guest-0", 0), (0,)}


def test_a_refusal_is_held_for_its_retry_after_on_the_event_loop_before_it_is_sent(
    rf, settings, monkeypatch
):
    """A script that sends its next change as soon as an answer comes is refused once a second
    a connection, not as fast as the server can refuse (companion/taps.py)."""
    from companion import asgi

    settings.COMPANION_TAPS_PER_SECOND = 1
    held: list[float] = []

    async def hold(seconds: float) -> None:
        held.append(seconds)

    monkeypatch.setattr(asgi, "asyncio", SimpleNamespace(sleep=hold))
    request = rf.post("/c/3/do/counter.adjust/", HTTP_HX_REQUEST="true")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = "a-script-of-its-own"
    assert too_fast(request, 3) is None and too_fast(request, 3) is None  # the burst, used up
    response = run(asgi.Handler().get_response_async(request))
    assert response.status_code == 429
    assert held == [1] and response["Retry-After"] == "1"


def test_the_server_hands_the_interpreter_lock_round_in_short_turns():
    """A quiet table's change waits for the interpreter's lock at every query beside a busy
    table's drawing thread; the server shortens the turns (companion/asgi.py)."""
    from companion import asgi

    assert sys.getswitchinterval() == pytest.approx(asgi.SWITCH_INTERVAL)
    assert asgi.SWITCH_INTERVAL < 0.005  # Python's default


@pytest.mark.server
def test_a_script_tapping_as_fast_as_the_server_answers_is_refused_and_changes_nothing(
    site_database,
):
    from tests.journeys import Site, busy_table, tracker_ids

    site = Site(site_database, COMPANION_TAPS_PER_SECOND="8")  # the default, as hosted
    owner, (script, friend), campaign = busy_table(site.url, 2, "Fast fingers")
    try:
        taps, _notes = tracker_ids(owner, campaign)
        change = f"/c/{campaign}/do/counter.adjust/"
        # The bucket holds 16 taps and refills 8 a second: 32 sent as fast as the server
        # answers overflow it unless each took over 60 ms. Every refusal is held a second,
        # so each one more costs the test a second of waiting.
        answers = [script.post(change, {"tracker": taps, "delta": 1}) for _ in range(32)]
        statuses = [answer.status_code for answer in answers]
        assert set(statuses) == {302, 429}, statuses
        refused = next(answer for answer in answers if answer.status_code == 429)
        assert "Too many taps" in refused.text
        assert refused.headers["Retry-After"] == "1"
        # Only the taps let through were applied.
        version = owner.get(f"/c/{campaign}/version/").json()["version"]
        assert version == statuses.count(302)
        # Another member of the same campaign taps at once, as usual.
        assert friend.post(change, {"tracker": taps, "delta": 1}).status_code == 302
    finally:
        for phone in (owner, script, friend):
            phone.close()
        site.close()
