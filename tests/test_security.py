"""What an attacker tries: a public secret key, undoing what one may not do, a stolen session,
a bag too big to work out, huge or odd requests, and limits dodged through another process."""

import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.utils.safestring import mark_safe

from campaigns.models import NotAllowed
from companion.settings import secret_key
from tests.conftest import HTMX, client_for, snapshot, text, tracker_id

ROOT = Path(__file__).resolve().parent.parent

# The key that was tracked in git from the first commit: public, so it must sign nothing now.
PUBLISHED_KEY = "Mt2PKF3qRpZ5uTprk3fs1FLo-4pEgk9BQIJV0GuV4es-YiQEobQRfpq5WJxkR7p2Vso"


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()


# Secret key


def test_no_tracked_file_is_a_secret():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    secrets = [
        name
        for name in tracked
        if re.search(r"(^|/)\.?(secret|.*\.key$|.*\.pem$|\.env$|id_rsa)", name)
    ]
    assert secrets == []
    assert PUBLISHED_KEY not in "".join(
        (ROOT / name).read_text(errors="replace")
        for name in tracked
        if name.endswith(".py") and name != "tests/test_security.py"
    )


def forged_messages_cookie(key: str) -> str:
    """A messages cookie holding raw HTML marked safe, signed with `key`."""
    with override_settings(SECRET_KEY=key):
        storage = CookieStorage(RequestFactory().get("/"))
        message = Message(constants.INFO, mark_safe('<img src=x id="forged">'))
        return storage._encode([message])


def test_a_messages_cookie_forged_with_the_published_key_is_not_rendered(owner):
    client = Client()
    client.force_login(owner)
    client.cookies["messages"] = forged_messages_cookie(PUBLISHED_KEY)
    page = client.get("/").content.decode()
    assert 'id="forged"' not in page
    assert "&lt;img" not in page  # not shown escaped either: the cookie is simply not trusted


def test_the_site_makes_its_own_key_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    key = secret_key()
    path = tmp_path / ".secret_key"
    assert len(key) >= 50 and path.read_text() == key
    assert path.stat().st_mode & 0o777 == 0o600
    assert secret_key() == key  # made once, then kept
    # A key from an older clone (the published one) is replaced by a fresh one.
    path.write_text(PUBLISHED_KEY + "\n")
    fresh = secret_key()
    assert fresh not in (PUBLISHED_KEY, key)
    assert path.read_text() == fresh and path.stat().st_mode & 0o777 == 0o600


# Undo and redo need the role of the change they undo


def archive_by_owner(campaign, owner):
    campaign.apply("campaign.archive", {"archived": True}, owner)
    return campaign


def test_a_player_refused_archive_cannot_undo_the_owners_archive(campaign, owner, player):
    archive_by_owner(campaign, owner)
    client = client_for(player)
    assert client.post(f"/c/{campaign.pk}/do/campaign.archive/", {}).status_code == 403
    before = snapshot(campaign)
    response = client.post(f"/c/{campaign.pk}/undo/", {}, **HTMX)
    assert response.status_code == 403
    assert "Only the owner can do that." in text(response)
    assert snapshot(campaign) == before and campaign.archived
    # The bar does not offer what the member may not do.
    page = text(client.get(f"/c/{campaign.pk}/"))
    assert re.search(r'<button type="submit" class="quiet" disabled title="Undo"', page)
    # The owner still can.
    assert client_for(owner).post(f"/c/{campaign.pk}/undo/", {}).status_code == 302
    campaign.refresh_from_db()
    assert not campaign.archived


def test_a_player_cannot_redo_the_owners_archive(campaign, owner, player):
    archive_by_owner(campaign, owner)
    campaign.undo(owner)
    before = snapshot(campaign)
    response = client_for(player).post(f"/c/{campaign.pk}/redo/", {}, **HTMX)
    assert response.status_code == 403
    assert "Only the owner can do that." in text(response)
    assert snapshot(campaign) == before and not campaign.archived
    with pytest.raises(NotAllowed):
        campaign.redo(player, role="player")
    campaign.redo(owner, role="owner")
    assert campaign.archived


def test_a_player_still_undoes_and_redoes_a_players_change(campaign, owner, player):
    doom = tracker_id(campaign, "Doom")
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 2}, owner)
    client = client_for(player)
    assert client.post(f"/c/{campaign.pk}/undo/", {}).status_code == 302
    assert client.post(f"/c/{campaign.pk}/redo/", {}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.state["trackers"][0]["value"] == 2


# The account page asks for the current password


def test_changing_a_password_needs_the_current_one(owner):
    client = client_for(owner)
    page = text(client.get("/account/"))
    assert "Current password" in page
    for data in (
        {"username": "olive", "password": "taken-over-by-thief-9"},
        {"username": "olive", "password": "taken-over-by-thief-9", "current_password": "guess"},
    ):
        response = client.post("/account/", data)
        assert response.status_code == 422
        owner.refresh_from_db()
        assert owner.check_password("a-long-password-1")
        assert not owner.check_password("taken-over-by-thief-9")
    assert "That is not your current password." in text(response)
    response = client.post(
        "/account/",
        {
            "username": "olive",
            "password": "violet-harbour-42",
            "current_password": "a-long-password-1",
        },
    )
    assert response.status_code == 302
    owner.refresh_from_db()
    assert owner.check_password("violet-harbour-42")


def test_guessing_the_current_password_is_rate_limited(settings, owner):
    settings.COMPANION_RATE_LIMIT = 3
    client = client_for(owner)
    wrong = {"username": "olive", "password": "taken-over-by-thief-9", "current_password": "x"}
    for _ in range(3):
        assert client.post("/account/", wrong).status_code == 422
    right = {**wrong, "current_password": "a-long-password-1"}
    response = client.post("/account/", right)
    assert response.status_code == 429
    assert "Too many attempts" in text(response)
    owner.refresh_from_db()
    assert owner.check_password("a-long-password-1")


def test_a_guest_keeps_its_account_without_a_current_password(campaign):
    client = Client()
    client.post(f"/join/{campaign.invite_token}/", {"display_name": "Quinn"})
    assert "Current password" not in text(client.get("/account/"))
    response = client.post("/account/", {"username": "quinn", "password": "violet-harbour-42"})
    assert response.status_code == 302
    assert get_user_model().objects.get(username="quinn").check_password("violet-harbour-42")
    # From then on it is an account with a password like any other.
    response = client.post("/account/", {"username": "quinn", "password": "thief-takes-it-42"})
    assert response.status_code == 422
