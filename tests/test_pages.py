"""Every page renders, in the reader's language; creating a campaign; no request is a 500."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership
from tests.factories import client_for, make_campaign, make_user, tracker_id
from tests.journeys import HTMX, snapshot, text

ACTIONS = sorted(GAMES["any"].commands)


# Pages


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/", "Your campaigns"),
        ("/new/", "Any game"),
        ("/new/any/", "New Any game campaign"),
        ("/import/", "Import a campaign"),
        ("/account/", "Your account"),
        ("/c/{pk}/", "Doom"),
        ("/c/{pk}/history/", "Nothing has happened yet."),
        ("/c/{pk}/members/", "Players can change the campaign"),
        ("/c/{pk}/settings/", "Back up"),
    ],
)
@pytest.mark.parametrize("who", ["owner", "player"])
def test_every_page_renders_for_a_member(request, campaign, url, expected, who):
    client = client_for(request.getfixturevalue(who))
    response = client.get(url.format(pk=campaign.pk))
    assert response.status_code == 200
    body = text(response)
    assert expected in body
    assert body.startswith("<!doctype html>")


def test_the_campaign_page_lists_its_campaigns_and_trackers(owner_client, campaign):
    assert "Our campaign" in text(owner_client.get("/"))
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    for name in ("Doom", "Stickers", "Banished", "Notes", "Results"):
        assert f">{name}</h2>" in page
    assert '<p class="bounds muted">0 – 12</p>' in page
    assert 'aria-label="Doom minus one" disabled' in page  # at its lowest already


def test_the_members_page_shows_the_invitation_to_the_owner_only(campaign, owner, player):
    owner_page = text(client_for(owner).get(f"/c/{campaign.pk}/members/"))
    invite_url = f"http://testserver/join/{campaign.invite_token}/"
    assert invite_url in owner_page
    assert '<div class="qr"><svg' in owner_page
    assert "Make viewer" in owner_page
    assert "Pat" in owner_page

    player_page = text(client_for(player).get(f"/c/{campaign.pk}/members/"))
    assert campaign.invite_token not in player_page
    assert '<div class="qr"><svg' not in player_page  # no QR code of the invitation
    assert "Make viewer" not in player_page
    assert "Olive" in player_page


def test_the_settings_page_offers_delete_and_archive_to_the_owner_only(campaign, owner, player):
    owner_page = text(client_for(owner).get(f"/c/{campaign.pk}/settings/"))
    assert "Delete for everyone" in owner_page
    assert f'action="/c/{campaign.pk}/do/campaign.archive/"' in owner_page
    player_page = text(client_for(player).get(f"/c/{campaign.pk}/settings/"))
    assert "Delete for everyone" not in player_page
    assert "campaign.archive" not in player_page
    assert "Rename" in player_page


def test_an_anonymous_visitor_sees_the_welcome_page(db):
    response = Client().get("/")
    assert response.status_code == 200
    assert "Log in" in text(response)
    for url in ("/new/", "/import/", "/account/"):
        response = Client().get(url)
        assert response.status_code == 302
        assert response.url.startswith("/login/")


def test_an_unknown_game_is_404(owner_client):
    assert owner_client.get("/new/chess/").status_code == 404
    assert owner_client.post("/new/chess/", {"name": "x"}).status_code == 404


# Language


def test_the_campaign_page_in_japanese_through_the_language_switch(owner_client, campaign):
    assert '<html lang="en">' in text(owner_client.get(f"/c/{campaign.pk}/"))
    response = owner_client.post("/language/", {"language": "ja", "next": f"/c/{campaign.pk}/"})
    assert response.status_code == 302
    assert response.url == f"/c/{campaign.pk}/"
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    assert '<html lang="ja">' in page
    assert 'lang="ja" aria-pressed="true"' in page


def test_the_campaign_page_in_japanese_from_the_browser_language(owner_client, campaign):
    response = owner_client.get(f"/c/{campaign.pk}/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert response.status_code == 200
    assert '<html lang="ja">' in text(response)
    response = owner_client.get(f"/c/{campaign.pk}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert '<html lang="en">' in text(response)


# History and the cost of a page


def add_events(campaign, user, n: int) -> None:
    doom = tracker_id(campaign, "Doom")
    for i in range(n):
        campaign.apply("counter.adjust", {"tracker": doom, "delta": 1 if i % 2 == 0 else -1}, user)


def test_history_paginates(owner_client, campaign, owner):
    add_events(campaign, owner, 40)
    first = text(owner_client.get(f"/c/{campaign.pk}/history/"))
    assert "Page 1 of 2" in first
    assert 'href="?page=2"' in first
    assert first.count('<li class="kind-do">') == 30
    assert "#40 · Olive" in first
    assert "#10 · Olive" not in first

    second = owner_client.get(f"/c/{campaign.pk}/history/?page=2")
    assert second.status_code == 200
    second = text(second)
    assert "Page 2 of 2" in second
    assert second.count('<li class="kind-do">') == 10
    assert "#1 · Olive" in second
    assert "#11 · Olive" not in second
    # A page past the end shows the last one, and nonsense shows the first.
    assert "Page 2 of 2" in text(owner_client.get(f"/c/{campaign.pk}/history/?page=99"))
    assert "Page 1 of 2" in text(owner_client.get(f"/c/{campaign.pk}/history/?page=x"))


def test_history_with_few_events_has_no_pager(owner_client, campaign, owner):
    add_events(campaign, owner, 3)
    page = text(owner_client.get(f"/c/{campaign.pk}/history/"))
    assert "Page 1" not in page
    assert page.count('<li class="kind-do">') == 3


def queries_for(client, url: str) -> int:
    client.get(url)  # warm up: session, caches
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_a_campaign_page_costs_the_same_queries_however_long_its_history(owner, player):
    short, long_ = make_campaign(owner, "Short"), make_campaign(owner, "Long")
    add_events(short, owner, 5)
    add_events(long_, owner, 60)
    short.undo(owner)
    long_.undo(owner)
    client = client_for(owner)
    for page in ("", "history/"):
        assert queries_for(client, f"/c/{short.pk}/{page}") == queries_for(
            client, f"/c/{long_.pk}/{page}"
        )


# Creating a campaign


SETUP = {
    "name": "  Gloomy ",
    "counters": "Doom 0 12\nLife 0 30 30",
    "checklists": "Stickers: A, B",
    "lists": "Banished",
    "notes": "on",
    "results": "on",
}


def test_creating_an_any_game_campaign_builds_its_trackers(owner_client, owner):
    response = owner_client.post("/new/any/", SETUP)
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert response.url == f"/c/{campaign.pk}/"
    assert campaign.name == "Gloomy"
    assert campaign.game == "any"
    assert campaign.version == 0
    assert campaign.memberships.get().user == owner
    assert campaign.memberships.get().role == Membership.Role.OWNER
    trackers = {t["name"]: t for t in campaign.state["trackers"]}
    assert list(trackers) == ["Doom", "Life", "Stickers", "Banished", "Notes", "Results"]
    doom, life = trackers["Doom"], trackers["Life"]
    assert (doom["minimum"], doom["maximum"], doom["value"]) == (0, 12, 0)
    assert (life["minimum"], life["maximum"], life["value"]) == (0, 30, 30)
    assert [(i["label"], i["done"]) for i in trackers["Stickers"]["items"]] == [
        ("A", False),
        ("B", False),
    ]
    assert [t["kind"] for t in trackers.values()] == [
        "counter",
        "counter",
        "checklist",
        "list",
        "notes",
        "results",
    ]
    page = text(owner_client.get(response.url))
    assert '<output class="value" aria-live="polite">30</output>' in page
    assert campaign.replay() == campaign.state


def test_creating_without_notes_or_results_leaves_them_out(owner_client):
    data = {**SETUP, "notes": "", "results": ""}
    del data["notes"], data["results"]
    assert owner_client.post("/new/any/", data).status_code == 302
    kinds = [t["kind"] for t in Campaign.objects.get().state["trackers"]]
    assert kinds == ["counter", "counter", "checklist", "list"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"counters": "Doom 5"}, "give both the lowest and the highest value, or neither."),
        ({"counters": "Life 10 0"}, "“Life 10 0”: the lowest value, 10, is above the highest, 0."),
        ({"counters": "Life 0 10 11"}, "“Life 0 10 11”: the start value, 11, is not from 0 to 10."),
        ({"counters": "Doom 0 12\ndoom 1 2"}, "There is already a tracker called “doom”."),
        ({"checklists": ": A, B"}, "“: A, B” needs a name."),
        ({"name": ""}, "This field is required."),
        ({"name": "   "}, "This field is required."),
        ({"name": "x" * 81}, "Ensure this value has at most 80 characters"),
        ({"counters": "Doom 0 9999999"}, "keep the numbers within a million either way."),
    ],
    ids=[
        "one-bound",
        "low-above-high",
        "start-outside",
        "duplicate-name",
        "checklist-without-name",
        "name-missing",
        "name-blank",
        "name-too-long",
        "counter-too-large",
    ],
)
def test_a_bad_setup_is_refused_with_a_message(owner_client, change, message):
    response = owner_client.post("/new/any/", {**SETUP, **change})
    assert response.status_code == 422
    assert message in text(response)
    assert 'class="errorlist' in text(response)
    # The page comes back at its top, which says the messages are next to their fields.
    page = text(response)
    top = page.index("Some answers need a change: each message is next to its field.")
    assert top < page.index('name="name"')
    assert Campaign.objects.count() == 0


def test_a_missing_name_field_is_refused(owner_client):
    data = dict(SETUP)
    del data["name"]
    response = owner_client.post("/new/any/", data)
    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert Campaign.objects.count() == 0


# Malformed requests are refused, never a 500

GARBAGE = ["", "abc", "1.5", "-1", "0", "9" * 30, "-" + "9" * 30, "1e9", "\x00", "x" * 6000]


def malformed_posts(campaign, action: str) -> list[tuple[dict, dict]]:
    """(payload, headers): every field of the action's form set to one garbage value, posted
    plainly with the tracker garbage too, and by htmx with a real tracker."""
    fields = list(GAMES["any"].commands[action].form.base_fields)
    real = tracker_id(campaign, "Doom")
    posts: list[tuple[dict, dict]] = [({}, {}), ({}, HTMX)]
    for value in GARBAGE:
        payload = {**dict.fromkeys(fields, value), "region": value, "version": value}
        posts.append((payload, {}))
        if "tracker" in fields:
            posts.append(({**payload, "tracker": real}, HTMX))
    posts.append(({"tracker": [real, real], "delta": ["1", "2"], "item": ["1", "x"]}, HTMX))
    return posts


@pytest.mark.sweep
@pytest.mark.parametrize("action", ACTIONS)
def test_every_malformed_post_to_an_action_is_refused_not_a_500(owner_client, campaign, action):
    url = f"/c/{campaign.pk}/do/{action}/"
    for payload, headers in malformed_posts(campaign, action):
        response = owner_client.post(url, payload, **headers)
        # Some garbage happens to be valid ("0", "-1"): then the change is made.
        assert response.status_code in (200, 302, 409, 422), (payload, response.status_code)
    campaign.refresh_from_db()
    assert campaign.replay() == campaign.state


def test_an_unknown_action_is_404(owner_client, campaign):
    for action in ("explode", "counter.explode", "x" * 500, "__init__", "counter.adjust.x"):
        response = owner_client.post(f"/c/{campaign.pk}/do/{action}/", {"tracker": 1})
        assert response.status_code == 404, action
    campaign.refresh_from_db()
    assert campaign.version == 0


def test_opening_a_changes_address_shows_the_campaign_and_changes_nothing(
    owner_client, campaign, stranger
):
    """A form refused without JavaScript leaves the browser at the address it posted to: a
    reload there (a GET) is the campaign's table, for its members only."""
    pk = campaign.pk
    before = snapshot(campaign)
    urls = [
        f"/c/{pk}/do/counter.adjust/",
        f"/c/{pk}/undo/",
        f"/c/{pk}/redo/",
        f"/c/{pk}/members/invite/",
        f"/c/{pk}/members/remove/",
        f"/c/{pk}/members/role/",
        f"/c/{pk}/delete/",
    ]
    for url in urls:
        response = owner_client.get(url, follow=True)
        assert response.redirect_chain == [(f"/c/{pk}/", 302)], url
        assert campaign.name in text(response), url
        assert owner_client.head(url).status_code == 302, url
        # Any other method is still not a change.
        assert owner_client.put(url).status_code == 405, url
    for url in urls:
        assert client_for(stranger).get(url, follow=True).status_code == 404, url
    assert snapshot(campaign) == before
    assert Campaign.objects.filter(pk=pk).exists()


def test_malformed_undo_redo_and_member_posts_are_refused_not_a_500(owner_client, campaign):
    pk = campaign.pk
    for value in GARBAGE:
        for url, data in [
            (f"/c/{pk}/undo/", {"event": value, "back": value}),
            (f"/c/{pk}/redo/", {"event": value, "back": value}),
            (f"/c/{pk}/members/remove/", {"member": value}),
            (f"/c/{pk}/members/role/", {"member": value, "role": value}),
            (f"/c/{pk}/delete/", {"confirm": value}),
        ]:
            for headers in ({}, HTMX) if "undo" in url or "redo" in url else ({},):
                response = owner_client.post(url, data, **headers)
                assert response.status_code in (409, 422), (url, data, response.status_code)
    assert Campaign.objects.get(pk=pk).memberships.count() == 2


def test_the_owner_cannot_reach_a_membership_of_another_campaign(owner_client, campaign, stranger):
    other = make_campaign(stranger, "Theirs")
    theirs = Membership.objects.create(campaign=other, user=make_user("tia"), role="player")
    response = owner_client.post(f"/c/{campaign.pk}/members/remove/", {"member": theirs.pk})
    assert response.status_code == 422
    response = owner_client.post(
        f"/c/{campaign.pk}/members/role/", {"member": theirs.pk, "role": "viewer"}
    )
    assert response.status_code == 422
    theirs.refresh_from_db()
    assert theirs.role == "player"


def test_nobody_can_be_made_owner_through_the_role_form(owner_client, campaign, player):
    membership = campaign.memberships.get(user=player)
    response = owner_client.post(
        f"/c/{campaign.pk}/members/role/", {"member": membership.pk, "role": "owner"}
    )
    assert response.status_code == 422
    membership.refresh_from_db()
    assert membership.role == "player"


def test_malformed_join_import_and_account_posts_are_refused_not_a_500(campaign):
    cache.clear()  # the join limit counts per address
    for value in GARBAGE:
        response = Client().post(f"/join/{campaign.invite_token}/", {"display_name": value})
        assert response.status_code == (302 if value.strip("\x00 ") and len(value) <= 40 else 422)
    for token in ("%00", "x" * 1000, "..%2F..%2Fetc"):
        assert Client().get(f"/join/{token}/").status_code == 404
    client = Client()
    client.post(f"/join/{campaign.invite_token}/", {"display_name": "Guest"})
    for value in GARBAGE:
        response = client.post("/account/", {"username": value, "password": value})
        assert response.status_code in (302, 422), value
    for value in GARBAGE:
        response = client.post("/import/", {"file": value})
        assert response.status_code == 422, value


@pytest.mark.parametrize(("field", "value"), [("counters", "Doom 5"), ("checklists", ": A, B")])
def test_a_line_that_cannot_be_read_is_refused_next_to_its_field(owner_client, field, value):
    response = owner_client.post("/new/any/", {**SETUP, field: value})
    assert response.status_code == 422
    assert f'id="id_{field}_error"' in text(response)
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("page", ["", "history/", "members/", "settings/"])
def test_every_campaign_page_says_which_version_it_shows(campaign, owner, page):
    """A live refresh knows it caught up; without it polling refetched the page every 2 s."""
    campaign.apply("counter.adjust", {"tracker": tracker_id(campaign, "Doom"), "delta": 1}, owner)
    response = client_for(owner).get(f"/c/{campaign.pk}/{page}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["X-Campaign-Version"] == "1"


@pytest.mark.sweep
def test_every_page_has_one_main_landmark_holding_its_heading(db):
    """A screen reader jumps to the page's content: one <main>, with the page's <h1> in it, on
    the site's pages and on every page of every game's campaign."""
    from django.urls import reverse

    from tests import factories
    from tests.journeys import page_urls

    owner = factories.user("landmarks")
    client = client_for(owner)
    urls = ["/", "/new/", "/new/any/", "/import/", "/account/"]
    for game in GAMES:
        urls += page_urls(factories.campaign(game, owner=owner))
    anonymous = [reverse("accounts:login"), "/signup/"]
    for url, reader in [(url, client) for url in urls] + [(url, Client()) for url in anonymous]:
        body = text(reader.get(url))
        assert body.count("<main") == 1 and body.count("</main>") == 1, url
        main = body[body.index("<main") : body.index("</main>")]
        assert "<h1" in main, url
