"""Who may see and change a campaign: strangers, viewers, players, owners, guests, attackers."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.test import Client

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership
from tests.factories import client_for, make_user, tracker_id
from tests.journeys import assert_refused, snapshot

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = sorted(GAMES["any"].commands)


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    # The join, login and signup limits count per address in the cache: start each test afresh.
    cache.clear()


@pytest.fixture
def furnished(campaign, owner):
    """The campaign with something in every tracker, so every action has a valid target."""
    banished = tracker_id(campaign, "Banished")
    notes = tracker_id(campaign, "Notes")
    campaign.apply("list.add", {"tracker": banished, "text": "Goblin", "reason": ""}, owner)
    campaign.apply("list.add", {"tracker": banished, "text": "Orc", "reason": ""}, owner)
    orc = campaign.state["trackers"][2]["items"][1]["id"]
    campaign.apply("list.remove", {"tracker": banished, "item": orc, "reason": "gone"}, owner)
    campaign.apply("notes.add", {"tracker": notes, "text": "plain"}, owner)
    campaign.apply("notes.add", {"tracker": notes, "text": "crossed"}, owner)
    crossed = campaign.state["trackers"][3]["entries"][1]["id"]
    campaign.apply("notes.cross", {"tracker": notes, "item": crossed}, owner)
    campaign.apply(
        "results.add",
        {"tracker": tracker_id(campaign, "Results"), "date": "2024-01-02", "result": "win"},
        owner,
    )
    campaign.apply("tracker.add", {"kind": "dice", "name": "Dice", "success_on": 5}, owner)
    deck = {"kind": "deck", "name": "Deck", "cards": [{"name": "Ace", "count": 2}]}
    campaign.apply("tracker.add", deck, owner)
    campaign.apply("tracker.add", {"kind": "turns", "name": "Turns", "items": ["A", "B"]}, owner)
    turns = tracker_id(campaign, "Turns")
    campaign.apply("turns.first", {"tracker": turns}, owner)
    campaign.apply("tracker.add", {"kind": "timer", "name": "Timer", "seconds": 30}, owner)
    campaign.apply("timer.start", {"tracker": tracker_id(campaign, "Timer"), "seconds": 30}, owner)
    campaign.apply("tracker.add", {"kind": "coin", "name": "Coin"}, owner)
    return campaign


def valid_data(campaign, action: str) -> dict:
    """Data with which the action succeeds for the owner (checked below)."""
    trackers = {t["name"]: t for t in campaign.state["trackers"]}
    doom, stickers = trackers["Doom"], trackers["Stickers"]
    banished, notes, results = trackers["Banished"], trackers["Notes"], trackers["Results"]
    return {
        "campaign.rename": {"name": "Renamed", "version": campaign.version},
        "campaign.archive": {"archived": "on"},
        "tracker.add": {"kind": "list", "name": "New list"},
        "tracker.remove": {"tracker": banished["id"]},
        "counter.adjust": {"tracker": doom["id"], "delta": 1},
        "counter.set": {"tracker": doom["id"], "value": 3, "version": campaign.version},
        "checklist.check": {
            "tracker": stickers["id"],
            "item": stickers["items"][0]["id"],
            "done": "true",
        },
        "checklist.add": {"tracker": stickers["id"], "label": "D"},
        "list.add": {"tracker": banished["id"], "text": "Troll", "reason": "why"},
        "list.remove": {"tracker": banished["id"], "item": banished["items"][0]["id"]},
        "list.restore": {"tracker": banished["id"], "item": banished["items"][1]["id"]},
        "notes.add": {"tracker": notes["id"], "text": "more"},
        "notes.cross": {"tracker": notes["id"], "item": notes["entries"][0]["id"]},
        "notes.restore": {"tracker": notes["id"], "item": notes["entries"][1]["id"]},
        "results.add": {"tracker": results["id"], "date": "2024-02-03", "result": "loss"},
        "results.remove": {"tracker": results["id"], "item": results["rows"][0]["id"]},
        "dice.roll": {"tracker": trackers["Dice"]["id"], "dice": 2, "version": campaign.version},
        "deck.draw": {"tracker": trackers["Deck"]["id"], "version": campaign.version},
        "deck.reset": {"tracker": trackers["Deck"]["id"], "version": campaign.version},
        "turns.seat": {"tracker": trackers["Turns"]["id"], "seat": "C"},
        "turns.first": {"tracker": trackers["Turns"]["id"], "version": campaign.version},
        "turns.next": {"tracker": trackers["Turns"]["id"], "version": campaign.version},
        "turns.pass": {"tracker": trackers["Turns"]["id"], "version": campaign.version},
        "turns.unseat": {
            "tracker": trackers["Turns"]["id"],
            "seat": trackers["Turns"]["seats"][0]["id"],
            "version": campaign.version,
        },
        "timer.start": {"tracker": trackers["Timer"]["id"], "seconds": 60},
        "timer.stop": {"tracker": trackers["Timer"]["id"]},
        "coin.flip": {"tracker": trackers["Coin"]["id"], "version": campaign.version},
    }[action]


@pytest.fixture
def viewer(campaign):
    user = make_user("vera")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.VIEWER)
    return user


def page_urls(campaign) -> list[str]:
    pk = campaign.pk
    return [
        f"/c/{pk}/",
        f"/c/{pk}/history/",
        f"/c/{pk}/members/",
        f"/c/{pk}/settings/",
        f"/c/{pk}/export.json",
        f"/c/{pk}/version/",
    ]


# The data above is right: every action works for the owner with it.


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_with_valid_data_works_for_the_owner(furnished, owner, action):
    before = furnished.version
    response = client_for(owner).post(
        f"/c/{furnished.pk}/do/{action}/", valid_data(furnished, action)
    )
    assert response.status_code == 302
    furnished.refresh_from_db()
    assert furnished.version == before + 1


# Strangers: a campaign they do not belong to does not exist for them.


def test_a_stranger_gets_404_for_every_campaign_page(furnished, stranger):
    client = client_for(stranger)
    for url in [*page_urls(furnished), f"/c/{furnished.pk}/stream/"]:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Our campaign" not in response.content.decode(), url


@pytest.mark.parametrize("action", ACTIONS)
def test_a_stranger_gets_404_for_every_action(furnished, stranger, action):
    before = snapshot(furnished)
    response = client_for(stranger).post(
        f"/c/{furnished.pk}/do/{action}/", valid_data(furnished, action)
    )
    assert response.status_code == 404
    assert snapshot(furnished) == before


def test_a_stranger_gets_404_for_undo_redo_and_the_owners_controls(furnished, stranger, player):
    owner = furnished.memberships.get(role="owner").user
    doom = tracker_id(furnished, "Doom")
    furnished.apply("counter.adjust", {"tracker": doom, "delta": 1}, owner)
    furnished.apply("counter.adjust", {"tracker": doom, "delta": 1}, owner)
    furnished.undo(owner)  # something to undo and something to redo
    player_membership = furnished.memberships.get(user=player)
    pk = furnished.pk
    client = client_for(stranger)
    before = snapshot(furnished)
    for url, data in [
        (f"/c/{pk}/undo/", {}),
        (f"/c/{pk}/redo/", {}),
        (f"/c/{pk}/members/invite/", {}),
        (f"/c/{pk}/members/remove/", {"member": player_membership.pk}),
        (f"/c/{pk}/members/role/", {"member": player_membership.pk, "role": "viewer"}),
        (f"/c/{pk}/delete/", {"confirm": furnished.name}),
    ]:
        response = client.post(url, data)
        assert response.status_code == 404, url
        assert snapshot(furnished) == before, url


def test_an_anonymous_visitor_is_sent_to_log_in(campaign):
    response = Client().get(f"/c/{campaign.pk}/")
    assert response.status_code == 302
    assert response.url == f"/login/?next=/c/{campaign.pk}/"


def test_a_change_posted_after_the_session_ended_logs_in_back_to_its_page(campaign):
    """A change's own address takes only a POST: logging in must lead back to the page the form
    was on, or to the campaign's table when the page is not one a campaign can have."""
    doom = tracker_id(campaign, "Doom")
    data = {"tracker": doom, "delta": 1}
    for page, back in [
        ("history", f"/c/{campaign.pk}/history/"),
        ("bag", f"/c/{campaign.pk}/p/bag/"),
        ("", f"/c/{campaign.pk}/"),
        ("../../admin", f"/c/{campaign.pk}/"),
        ("nowhere", f"/c/{campaign.pk}/"),
    ]:
        response = Client().post(f"/c/{campaign.pk}/do/counter.adjust/", {**data, "page": page})
        assert response.status_code == 302
        assert response.url == "/login/?next=" + quote(back), page
    response = Client().post(f"/c/{campaign.pk}/undo/", {"event": 1, "page": "members"})
    assert response.url == "/login/?next=" + quote(f"/c/{campaign.pk}/members/")


def test_an_anonymous_post_changes_nothing(campaign):
    before = snapshot(campaign)
    doom = tracker_id(campaign, "Doom")
    response = Client().post(f"/c/{campaign.pk}/do/counter.adjust/", {"tracker": doom, "delta": 1})
    assert response.status_code == 302
    assert response.url.startswith("/login/")
    assert snapshot(campaign) == before


# Viewers follow but do not change.


def test_a_viewer_can_see_every_page(furnished, viewer):
    client = client_for(viewer)
    for url in page_urls(furnished):
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(f"/c/{furnished.pk}/").content.decode()
    assert "You are a viewer" in page
    assert "Add a tracker" not in page


@pytest.mark.parametrize("action", ACTIONS)
def test_a_viewer_gets_403_for_every_action(furnished, viewer, action):
    before = snapshot(furnished)
    response = client_for(viewer).post(
        f"/c/{furnished.pk}/do/{action}/", valid_data(furnished, action)
    )
    assert response.status_code == 403
    assert "Viewers can look but not change the campaign." in response.content.decode()
    assert snapshot(furnished) == before


def test_a_viewer_cannot_undo_or_redo(campaign, owner, viewer):
    doom = tracker_id(campaign, "Doom")
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, owner)
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, owner)
    campaign.undo(owner)
    client = client_for(viewer)
    before = snapshot(campaign)
    for which in ("undo", "redo"):
        response = client.post(f"/c/{campaign.pk}/{which}/")
        assert response.status_code == 403
        assert snapshot(campaign) == before


# Players change the campaign but not who is in it.


def test_a_player_cannot_manage_members_archive_or_delete(furnished, player, viewer):
    pk = furnished.pk
    viewer_membership = furnished.memberships.get(user=viewer)
    client = client_for(player)
    before = snapshot(furnished)
    for url, data in [
        (f"/c/{pk}/members/invite/", {}),
        (f"/c/{pk}/members/remove/", {"member": viewer_membership.pk}),
        (f"/c/{pk}/members/role/", {"member": viewer_membership.pk, "role": "player"}),
        (f"/c/{pk}/do/campaign.archive/", {"archived": "on"}),
        (f"/c/{pk}/delete/", {"confirm": furnished.name}),
    ]:
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert snapshot(furnished) == before, url


def test_a_player_does_not_see_the_invitation(campaign, player, owner):
    page = client_for(player).get(f"/c/{campaign.pk}/members/").content.decode()
    assert campaign.invite_token not in page
    assert '<div class="qr"><svg' not in page  # no QR code of the invitation
    assert (
        campaign.invite_token
        in client_for(owner).get(f"/c/{campaign.pk}/members/").content.decode()
    )


def test_the_owner_makes_a_player_a_viewer_and_back(campaign, owner, player):
    membership = campaign.memberships.get(user=player)
    response = client_for(owner).post(
        f"/c/{campaign.pk}/members/role/", {"member": membership.pk, "role": "viewer"}
    )
    assert response.status_code == 302
    membership.refresh_from_db()
    assert membership.role == "viewer"
    doom = tracker_id(campaign, "Doom")
    response = client_for(player).post(
        f"/c/{campaign.pk}/do/counter.adjust/", {"tracker": doom, "delta": 1}
    )
    assert response.status_code == 403
    client_for(owner).post(
        f"/c/{campaign.pk}/members/role/", {"member": membership.pk, "role": "player"}
    )
    response = client_for(player).post(
        f"/c/{campaign.pk}/do/counter.adjust/", {"tracker": doom, "delta": 1}
    )
    assert response.status_code == 302


def test_the_owners_own_membership_cannot_be_removed_or_demoted(campaign, owner):
    mine = campaign.memberships.get(user=owner)
    client = client_for(owner)
    before = snapshot(campaign)
    response = client.post(f"/c/{campaign.pk}/members/remove/", {"member": mine.pk})
    assert response.status_code == 422
    assert "That member cannot be removed." in response.content.decode()
    response = client.post(f"/c/{campaign.pk}/members/role/", {"member": mine.pk, "role": "viewer"})
    assert response.status_code == 422
    assert snapshot(campaign) == before


def test_the_owner_deletes_the_campaign_only_with_its_name(campaign, owner):
    client = client_for(owner)
    assert_refused(
        client, campaign, "delete/", {"confirm": "Not the name"}, message="not the campaign's name"
    )
    response = client.post(f"/c/{campaign.pk}/delete/", {"confirm": "Our campaign"})
    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert client.get(f"/c/{campaign.pk}/").status_code == 404


# CSRF


def test_a_post_without_the_csrf_token_is_refused(campaign, owner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    doom = tracker_id(campaign, "Doom")
    before = snapshot(campaign)
    response = client.post(f"/c/{campaign.pk}/do/counter.adjust/", {"tracker": doom, "delta": 1})
    assert response.status_code == 403
    assert "The page was out of date" in response.content.decode()
    assert snapshot(campaign) == before
    response = client.post(f"/c/{campaign.pk}/delete/", {"confirm": "Our campaign"})
    assert response.status_code == 403
    assert snapshot(campaign) == before

    # The same form with the token the page carries goes through.
    page = client.get(f"/c/{campaign.pk}/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(
        f"/c/{campaign.pk}/do/counter.adjust/",
        {"tracker": doom, "delta": 1, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.version == 1


# The owner renews the invitation, removes a member


def test_a_new_invitation_link_retires_the_old_one(campaign, owner):
    old = campaign.invite_token
    response = client_for(owner).post(f"/c/{campaign.pk}/members/invite/")
    assert response.status_code == 302
    assert response.url == f"/c/{campaign.pk}/members/"
    campaign.refresh_from_db()
    assert campaign.invite_token != old
    assert Client().get(f"/join/{old}/").status_code == 404
    response = Client().post(f"/join/{old}/", {"display_name": "Late"})
    assert response.status_code == 404
    assert Client().get(f"/join/{campaign.invite_token}/").status_code == 200
    response = Client().post(f"/join/{campaign.invite_token}/", {"display_name": "On time"})
    assert response.status_code == 302
    assert campaign.memberships.filter(user__first_name="On time").exists()
    assert not campaign.memberships.filter(user__first_name="Late").exists()


def test_a_removed_member_no_longer_sees_the_campaign(campaign, owner, player):
    client = client_for(player)
    assert client.get(f"/c/{campaign.pk}/").status_code == 200
    membership = campaign.memberships.get(user=player)
    response = client_for(owner).post(
        f"/c/{campaign.pk}/members/remove/", {"member": membership.pk, "confirm": "yes"}
    )
    assert response.status_code == 302
    for url in page_urls(campaign):
        assert client.get(url).status_code == 404, url
    doom = tracker_id(campaign, "Doom")
    response = client.post(f"/c/{campaign.pk}/do/counter.adjust/", {"tracker": doom, "delta": 1})
    assert response.status_code == 404
    assert "Our campaign" not in client.get("/").content.decode()


# Production settings and headers


def run_deploy_check(**extra_env) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "example.org",
        "DJANGO_DEBUG": "0",
        **extra_env,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deploy_check_is_clean_with_production_settings():
    result = run_deploy_check(COMPANION_HTTPS="1")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_the_deploy_check_notices_a_site_without_https():
    result = run_deploy_check(COMPANION_HTTPS="0")
    assert "security.W008" in result.stderr + result.stdout  # no SECURE_SSL_REDIRECT


def test_pages_carry_a_strict_content_security_policy(campaign, owner):
    client = client_for(owner)
    for url in ["/", f"/c/{campaign.pk}/", f"/c/{campaign.pk}/members/", "/login/"]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy, url
        assert "unsafe-eval" not in policy, url
        assert "frame-ancestors 'none'" in policy, url
        # The pages keep to that policy: no inline scripts or handlers.
        body = response.content.decode()
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", body) == [], url
        assert not re.search(r"\son[a-z]+=", body), url
