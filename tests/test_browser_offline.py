"""A phone that loses the Wi-Fi keeps the campaign (issue 23), in real Chromium with its service
worker: the site is installable; a reload without the connection shows the campaign as the phone
last had it, marked offline; a tap made offline waits on the phone across a reload and is applied
once when the connection is back; a draw offline says it needs the connection; a log out leaves
nothing of the campaign on the phone."""

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Request, expect

from tests.journeys import (
    PHONE,
    Phone,
    Site,
    create_any_game,
    join_by_invitation,
    open_new_campaign,
    post_form,
    settled,
    shot,
    sign_up,
)

pytestmark = pytest.mark.browser

OFFLINE = re.compile(r"Offline: as of \d\d?:\d\d.*changes will be sent when the connection is back")
NOT_SENT = "Not sent: no connection"
NEEDS = "Needs the connection"


def kept(page: Page) -> None:
    """Wait until the service worker has kept the page, at the version the page
    shows. (The cache is read asynchronously: a look-out in the page notes what it holds, and the
    test waits on that note.)"""
    page.evaluate(
        """() => {
            if (window.keptLookout) return;
            window.keptLookout = true;
            const look = async () => {
                const found = await caches.match(location.pathname, { ignoreVary: true });
                window.keptVersion = found ? found.headers.get("X-Companion-Version") : null;
                setTimeout(look, 100);
            };
            look();
        }"""
    )
    # (The worker keeps the page after it is shown: on a busy machine, more than the page's
    # default 10 s wait.)
    page.wait_for_function(
        """() => window.keptVersion != null && window.keptVersion ===
            (document.getElementById("live-root")?.dataset.version ?? window.keptVersion)""",
        timeout=30_000,
    )


def no_pages_kept(page: Page, under: str = "/") -> None:
    """Wait until the phone keeps no page under `under` (the site's static files stay)."""
    page.evaluate(
        """under => {
            const look = async () => {
                let left = 0;
                for (const name of await caches.keys())
                    for (const r of await (await caches.open(name)).keys()) {
                        const path = new URL(r.url).pathname;
                        if (path.startsWith(under) && !path.startsWith("/static/")) left += 1;
                    }
                window.pagesKept = left;
                if (left) setTimeout(look, 100);
            };
            look();
        }""",
        under,
    )
    page.wait_for_function("() => window.pagesKept === 0")


def history_count(page: Page) -> int:
    """How many changes the campaign's history lists, read in a fresh tab."""
    other = page.context.new_page()
    other.goto(re.sub(r"(/c/\d+/).*", r"\1history/", page.url))
    expect(other.get_by_role("heading", name="History")).to_be_visible()
    count = other.locator("#history li:not(.muted)").count()
    other.close()
    return count


def test_the_site_is_installable_and_a_reload_offline_shows_the_campaign(phone):
    page = phone
    # The phone's own clock, which Playwright can move on: what a live refresh shows is kept
    # a second and a half after it, not waited out.
    page.context.clock.install()
    page.set_viewport_size({"width": 360, "height": 640})
    asked: list[str] = []  # what the service worker asks the server for itself

    def by_the_worker(request: Request) -> None:
        if request.service_worker is not None:
            asked.append(request.url)

    page.context.on("request", by_the_worker)
    sign_up(page, "wifi-drops", home=False)
    create_any_game(page, "Kept table", "Doom 0 12")
    kept(page)
    # The first page came before the worker: kept as the phone shows it, not asked for and
    # drawn again; offline, a reload shows it.
    assert page.url not in asked, asked
    doom = page.get_by_role("region", name="Doom")
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    expect(doom.locator("output")).to_have_text("0")
    page.context.set_offline(False)
    expect(page.get_by_text(OFFLINE)).to_have_count(0)  # offline.js reloads it, back online

    # Installable: a manifest linked and valid, a service worker for the whole site.
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = json.loads(page.request.get(href).text())
    assert manifest["name"] == "Companion" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    workers = [w.url for w in page.context.service_workers]
    assert any(url.endswith("/sw.js") for url in workers), workers
    active = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)")
    assert active.endswith("/sw.js")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == page.url.split("/c/")[0] + "/"

    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.locator("output")).to_have_text("1")
    settled(page, 1)
    page.context.clock.fast_forward(1_500)
    kept(page)  # the page the phone shows now, at version 1

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", name="Kept table", exact=True)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    expect(doom.locator("output")).to_have_text("1")
    shot(page, "offline-reload")
    # A tap on the kept page waits on the phone.
    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.get_by_text(NOT_SENT)).to_be_visible()

    # The members page is never kept: offline it is not there.
    table = page.url
    with pytest.raises(Exception, match="ERR_"):
        page.goto(page.url.rstrip("/") + "/members/")

    # Back: the current page, with nothing of the offline one.
    page.context.set_offline(False)
    try:
        page.go_back(wait_until="commit")
    except PlaywrightError as error:
        # The kept page, back from the browser's page cache, reloads itself as the connection
        # returns (offline.js's probe): that reload can cut short go_back's own wait.
        assert "ERR_ABORTED" in str(error)
    expect(page).to_have_url(table)
    expect(page.get_by_role("heading", name="Kept table", exact=True)).to_be_visible()
    expect(page.get_by_text(OFFLINE)).to_have_count(0)
    expect(doom.locator("output")).to_have_text("2")
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    assert history_count(page) == 2


def test_a_tap_made_offline_survives_a_reload_and_is_applied_once(phones):
    page, friend = phones
    page.set_viewport_size({"width": 360, "height": 640})
    friend.set_viewport_size({"width": 360, "height": 640})
    sign_up(page, "tap-kept", home=False)
    create_any_game(page, "Tap kept", "Doom 0 12")
    join_by_invitation(page, friend, "Fern")
    page.get_by_role("link", name="Table").click()
    kept(page)
    doom = page.get_by_role("region", name="Doom")

    page.context.set_offline(True)
    doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.get_by_text(NOT_SENT)).to_be_visible()
    page.reload()
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    # The tap is still there after the reload, waiting.
    expect(doom.get_by_text(NOT_SENT)).to_be_visible()
    expect(doom.locator("output")).to_have_text("0")
    shot(page, "offline-tap-kept")
    # Meanwhile the other phone, online, makes a change of its own.
    friend_doom = friend.get_by_role("region", name="Doom")
    friend_doom.get_by_role("button", name="Doom plus one").click()
    # 1; now and then (2 runs in 8) 2: the owner's tap reached the server although Playwright's
    # emulated offline made it fail on the page (a request that passed the service worker's
    # fetch handler, it seems; not understood yet). Either way it is applied once, below.
    expect(friend_doom.locator("output")).to_have_text(re.compile(r"^[12]$"))

    page.context.set_offline(False)
    # Back: the current page (the friend's change), and the kept tap applied once on top.
    expect(page.get_by_text(OFFLINE)).to_have_count(0)
    expect(doom.locator("output")).to_have_text("2")
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    expect(friend_doom.locator("output")).to_have_text("2")
    settled(page, 2)
    assert history_count(page) == 2
    # Nothing waits on the phone any more: another reload sends nothing.
    page.reload()
    expect(doom.locator("output")).to_have_text("2")
    assert page.evaluate("localStorage.getItem('companion-waiting')") == "[]"
    assert history_count(page) == 2


def test_ten_taps_on_one_button_offline_are_ten_changes_across_a_reload(phone):
    """Every tap made offline is a change of its own (the tester's 40 taps on one "+" applied
    once): the note says how many wait, they stay across a reload (taps made on the kept page
    too), and each is applied once when the connection is back."""
    page = phone
    sign_up(page, "ten-taps", home=False)
    create_any_game(page, "Ten taps", "Doom 0 50")
    kept(page)
    doom = page.get_by_role("region", name="Doom")

    page.context.set_offline(True)
    for _ in range(6):
        doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.get_by_text(NOT_SENT)).to_contain_text("6 taps wait")
    page.reload()
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    expect(doom.get_by_text(NOT_SENT)).to_contain_text("6 taps wait")
    for _ in range(4):
        doom.get_by_role("button", name="Doom plus one").click()
    expect(doom.get_by_text(NOT_SENT)).to_contain_text("10 taps wait")
    expect(doom.locator("output")).to_have_text("0")
    shot(page, "offline-ten-taps")

    page.context.set_offline(False)
    expect(page.get_by_text(OFFLINE)).to_have_count(0)
    expect(doom.locator("output")).to_have_text("10", timeout=30_000)
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('companion-waiting') || '[]').length === 0"
    )
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    settled(page, 10)
    assert history_count(page) == 10
    page.reload()
    expect(doom.locator("output")).to_have_text("10")
    assert history_count(page) == 10


def test_a_draw_offline_says_it_needs_the_connection(phone):
    page = phone
    page.set_viewport_size({"width": 360, "height": 640})
    sign_up(page, "draw-offline", home=False)
    open_new_campaign(page, "zealot", "Offline bag")
    page.get_by_role("link", name="Chaos bag").first.click()
    kept(page)

    page.context.set_offline(True)
    page.get_by_role("button", name="Draw", exact=True).click()
    expect(page.get_by_role("status").filter(has_text=NEEDS)).to_be_visible()
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    shot(page, "offline-draw")
    page.reload()
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    page.get_by_role("button", name="Draw", exact=True).click()
    expect(page.get_by_role("status").filter(has_text=NEEDS)).to_be_visible()
    # Nothing was kept to send later.
    assert page.evaluate("localStorage.getItem('companion-waiting') || '[]'") == "[]"

    page.context.set_offline(False)
    expect(page.get_by_text(OFFLINE)).to_have_count(0)
    assert history_count(page) == 0


def test_log_out_leaves_nothing_of_the_campaign_on_the_phone(phone):
    page = phone
    sign_up(page, "logs-out", home=False)
    create_any_game(page, "Private table", "Doom 0 12")
    kept(page)
    table = page.url
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()

    # Nothing of the campaign is kept: only the site's own static files.
    no_pages_kept(page)
    page.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_"):
        page.goto(table)
    expect(page.get_by_text("Private table")).to_have_count(0)
    with pytest.raises(Exception, match="ERR_"):
        page.goto("/")


def a_friend_at_a_kept_table(owner, friend, owner_name: str, name: str) -> None:
    """The owner's new Any game campaign `name`, which Fern joined and her phone keeps."""
    sign_up(owner, owner_name, home=False)
    create_any_game(owner, name, "Doom 0 12")
    join_by_invitation(owner, friend, "Fern")
    expect(friend.get_by_role("heading", name=name)).to_be_visible()
    kept(friend)


def test_a_member_removed_keeps_nothing_of_the_campaign(phones):
    owner, friend = phones
    a_friend_at_a_kept_table(owner, friend, "removes-fern", "Closed table")
    table = friend.url

    owner.reload()
    members = owner.locator("#member-list")
    members.get_by_text("Remove", exact=True).click()
    members.get_by_role("button", name="Yes, remove Fern").click()
    expect(friend.get_by_role("alert")).to_contain_text("You are no longer a member")
    no_pages_kept(friend, under="/c/")

    friend.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_"):
        friend.goto(table)
    expect(friend.get_by_text("Closed table")).to_have_count(0)


def test_a_tap_kept_on_one_page_is_sent_from_another(phone):
    page = phone
    page.set_viewport_size({"width": 360, "height": 640})
    sign_up(page, "moves-on", home=False)
    create_any_game(page, "Moving on", "Doom 0 12")
    page.get_by_role("link", name="History").click()
    kept(page)
    page.get_by_role("link", name="Table").click()
    kept(page)

    page.context.set_offline(True)
    page.get_by_role("region", name="Doom").get_by_role("button", name="Doom plus one").click()
    expect(page.get_by_text(NOT_SENT)).to_be_visible()
    page.get_by_role("link", name="History").click()
    expect(page.get_by_text(OFFLINE)).to_be_visible()
    expect(page.locator("#history li:not(.muted)")).to_have_count(0)

    # Back on the history page: the tap made on the table goes from here, once.
    page.context.set_offline(False)
    expect(page.get_by_text(OFFLINE)).to_have_count(0)
    expect(page.locator("#history li:not(.muted)")).to_have_count(1)
    expect(page.locator("#history li:not(.muted)")).to_contain_text("Doom")
    page.get_by_role("link", name="Table").click()
    expect(page.get_by_role("region", name="Doom").locator("output")).to_have_text("1")
    expect(page.get_by_text(NOT_SENT)).to_have_count(0)
    assert history_count(page) == 1


def test_a_tap_that_waited_for_a_campaign_since_deleted_says_it_was_not_done(phones):
    owner, friend = phones
    a_friend_at_a_kept_table(owner, friend, "deletes-soon", "Soon gone")
    table = friend.url

    # The friend taps offline and reloads: the kept table, the tap waiting on it.
    friend.context.set_offline(True)
    friend.get_by_role("region", name="Doom").get_by_role("button", name="Doom plus one").click()
    expect(friend.get_by_text(NOT_SENT)).to_be_visible()
    friend.reload()
    expect(friend.get_by_text(OFFLINE)).to_be_visible()
    expect(friend.get_by_text(NOT_SENT)).to_be_visible()

    # Meanwhile the owner deletes the campaign.
    post_form(owner, table + "delete/", {"confirm": "Soon gone"}, ok=(302,))

    # Back online: the table is not found, and the phone says the tap was not done, naming it.
    friend.context.set_offline(False)
    expect(friend.get_by_role("heading", name="Not found")).to_be_visible()
    said = friend.get_by_role("alert")
    expect(said).to_contain_text("Doom plus one")
    expect(said).to_contain_text(
        "This campaign was deleted, or you are no longer one of its members."
    )
    assert friend.evaluate("localStorage.getItem('companion-waiting')") == "[]"
    shot(friend, "offline-tap-refused-404")


@pytest.fixture(scope="module")
def paced_site(site_database):
    """A site whose tap limit is 3 a second (bursts of 6): a person's pace, which forty taps sent
    as fast as the server answers are well over on any machine."""
    site = Site(site_database, COMPANION_TAPS_PER_SECOND="3")
    yield site
    site.close()


@pytest.mark.parametrize("sent_from", ["table", "history"])
def test_forty_taps_made_offline_go_at_the_tap_limits_pace_all_applied(
    browser, paced_site, sent_from
):
    context = browser.new_context(base_url=paced_site.url, **PHONE)
    page = context.new_page()
    try:
        sign_up(page, f"forty-from-{sent_from[0]}", home=False)
        letters = [chr(65 + n) for n in range(26)]
        names = [f"Clue {a}" for a in letters] + [f"Clue A{a}" for a in letters[:14]]
        create_any_game(page, "Forty taps", "\n".join(f"{name} 0 9" for name in names))
        table = page.url
        page.get_by_role("link", name="History").click()
        kept(page)
        page.get_by_role("link", name="Table").click()
        kept(page)
        answers: list[int] = []
        page.on("response", lambda r: answers.append(r.status) if "/do/" in r.url else None)

        page.context.set_offline(True)
        for name in names:
            page.get_by_role("button", name=f"{name} plus one", exact=True).click()
        expect(page.get_by_text(NOT_SENT)).to_have_count(40)
        if sent_from == "history":
            # The phone moves on to the history, kept, before the connection is back.
            page.get_by_role("link", name="History").click()
            expect(page.get_by_text(OFFLINE)).to_be_visible()

        # Back: every tap goes, oldest first, no faster than the server takes them.
        page.context.set_offline(False)
        if sent_from == "history":
            expect(page.get_by_text(OFFLINE)).to_have_count(0)
        page.wait_for_function(
            "() => JSON.parse(localStorage.getItem('companion-waiting') || '[]').length === 0",
            timeout=60_000,
        )
        expect(page.locator(".error")).to_have_count(0)
        assert 429 not in answers, answers
        events = page.request.get(table + "export.json").json()["events"]
        assert len(events) == 40
        # Each applied once, in the order they were made.
        made = [event["data"] for event in events]
        assert [change["name"] for change in made] == names
        page.goto(table)
        for name in names:
            region = page.get_by_role("region", name=name, exact=True)
            expect(region.locator("output")).to_have_text("1")
    finally:
        context.close()


def test_a_session_ended_elsewhere_leaves_no_page_kept_and_says_the_tap_not_sent(phone, site):
    page = phone
    sign_up(page, "ends-elsewhere", home=False)
    create_any_game(page, "Ended table", "Doom 0 12")
    kept(page)
    table = page.url

    page.context.set_offline(True)
    page.get_by_role("region", name="Doom").get_by_role("button", name="Doom plus one").click()
    expect(page.get_by_text(NOT_SENT)).to_be_visible()

    # The password is changed from another device: this phone's session is over.
    elsewhere = Phone(site.url)
    elsewhere.login("ends-elsewhere", "table-top-42x")
    response = elsewhere.post(
        "/account/",
        {
            "current_password": "table-top-42x",
            "username": "ends-elsewhere",
            "password": "another-table-77y",
        },
    )
    assert response.status_code == 302, response.text[:500]
    elsewhere.close()

    page.context.set_offline(False)
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("Not sent, because your session has ended")
    expect(page.get_by_role("alert")).to_contain_text("Doom plus one")
    assert page.evaluate("localStorage.getItem('companion-waiting') || '[]'") == "[]"
    shot(page, "offline-session-ended")

    # Nothing of the campaign is kept: offline, its table is not shown to whoever holds the phone.
    no_pages_kept(page)
    page.context.set_offline(True)
    with pytest.raises(Exception, match="ERR_"):
        page.goto(table)
    expect(page.get_by_text("Ended table")).to_have_count(0)
