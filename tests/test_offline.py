"""What the server tells a phone about keeping pages offline (issue 23): the service worker at
the site's root, the pages it may keep (this member's own, never the members or settings page,
never part of a page), the commands that need the connection, and a log out that forgets."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from tests import factories
from tests.factories import client_for
from tests.journeys import text

KEEP = "X-Companion-Keep"


def test_the_service_worker_is_served_from_the_root_with_its_version(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = text(response)
    config = re.match(r"self\.COMPANION = (\{.*?\});\n", body)
    assert config and '"version": "' in config.group(1)
    assert '"logout": "/logout/"' in config.group(1)
    assert '"/static/js/offline.js"' in config.group(1)
    assert 'addEventListener("fetch"' in body
    # The site's CSP lets the page register it: scripts (and workers) from the site itself.
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert client.post("/sw.js").status_code == 405


def test_every_page_links_the_worker_and_says_which_taps_need_the_connection(db):
    owner = factories.user("olive")
    campaign = factories.campaign("arkham", owner=owner)
    page = text(client_for(owner).get(f"/c/{campaign.pk}/p/bag/"))
    assert 'data-sw="/sw.js"' in page
    needs = re.search(r'id="live-root"[^>]* data-needs-connection="([^"]*)"', page)
    assert needs
    assert {"bag.draw", "bag.another", "dice.roll"} <= set(needs.group(1).split())
    assert "bag.seal" not in needs.group(1).split()
    assert "Offline: as of {time}, changes will be sent when the connection is back." in page


def test_the_pages_a_phone_keeps_are_this_members_table_game_pages_and_history(db):
    owner, friend = factories.user("olive"), factories.user("fern")
    campaign = factories.campaign("arkham", owner=owner, members={friend: Membership.Role.PLAYER})
    phone = client_for(friend)
    pk = campaign.pk
    # The answer says so (the worker reads it on the pages it fetches), and so does the page
    # (offline.js reads it on the first page a phone shows, which came before its worker).
    mark = f'data-keep="{friend.pk}"'
    for url in ("/", f"/c/{pk}/", f"/c/{pk}/p/bag/", f"/c/{pk}/history/"):
        response = phone.get(url)
        assert response.status_code == 200 and response[KEEP] == str(friend.pk), url
        assert text(response).count(mark) == 1, url
    for url in (f"/c/{pk}/members/", f"/c/{pk}/settings/"):
        response = phone.get(url)
        assert response.status_code == 200 and KEEP not in response, url
        assert "data-keep" not in text(response), url
    # Part of a page (a live refresh, an answer to a tap) is never kept as the page.
    live = phone.get(f"/c/{pk}/", headers={"HX-Request": "true", "X-Live-Refresh": "true"})
    assert live.status_code == 200 and KEEP not in live
    tap = phone.post(
        reverse("campaigns:act", args=[pk, "round.doom"]),
        {"delta": "1", "region": "round", "version": campaign.version},
        headers={"HX-Request": "true"},
    )
    assert KEEP not in tap and "data-keep" not in text(tap)
    # A page drawn again with a refusal (a form posted without htmx) is not kept either.
    refused = phone.post(
        reverse("campaigns:act", args=[pk, "round.doom"]),
        {"delta": "many", "region": "round", "version": campaign.version},
    )
    assert refused.status_code == 422 and KEEP not in refused
    assert "data-keep" not in text(refused)
    # Another member's campaign, or one the phone left: nothing to keep (404).
    stranger = client_for(factories.user("sam"))
    response = stranger.get(f"/c/{pk}/")
    assert response.status_code == 404 and KEEP not in response
    # Logged out: the login page, nothing kept.
    response = Client().get(f"/c/{pk}/")
    assert response.status_code == 302 and KEEP not in response


def test_log_out_tells_the_phone_to_forget(db):
    phone = client_for(factories.user("olive"))
    response = phone.post("/logout/")
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
