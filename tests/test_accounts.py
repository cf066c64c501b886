"""Accounts: signing up, logging in, keeping a guest's account, changing a password, joining a
campaign by its invitation, and the limits on guessing."""

import re
import types
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

import accounts.ratelimit as ratelimit
from campaigns.models import Membership


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    # The join, login and signup limits count per address: start each test afresh.
    cache.clear()


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def test_campaigns_imports_nothing_of_the_accounts_app():
    """Accounts know campaigns (joining makes a Membership); campaigns never know accounts'
    views or forms, so the campaign machinery can be read without them."""
    root = Path(__file__).resolve().parent.parent
    importers = [
        str(module.relative_to(root))
        for module in (root / "campaigns").rglob("*.py")
        if re.search(r"^\s*(from|import) accounts\b", module.read_text(), re.MULTILINE)
    ]
    assert importers == []


def test_the_accounts_addresses_are_the_ones_phones_already_have(campaign):
    assert reverse("accounts:login") == "/login/"
    assert reverse("accounts:logout") == "/logout/"
    assert reverse("accounts:signup") == "/signup/"
    assert reverse("accounts:account") == "/account/"
    token = campaign.invite_token
    assert reverse("accounts:join", args=[token]) == f"/join/{token}/"


# Joining with the invitation


def test_the_invitation_shows_the_campaign_name(campaign):
    response = Client().get(f"/join/{campaign.invite_token}/")
    assert response.status_code == 200
    assert "Join “Our campaign”" in response.content.decode()


def test_joining_creates_a_guest_player_who_is_logged_in(campaign):
    client = Client()
    users_before = get_user_model().objects.count()
    response = client.post(f"/join/{campaign.invite_token}/", {"display_name": " Quinn "})
    assert response.status_code == 302
    assert response.url == f"/c/{campaign.pk}/"
    assert get_user_model().objects.count() == users_before + 1
    guest = get_user_model().objects.get(first_name="Quinn")
    assert not guest.has_usable_password()
    assert campaign.memberships.get(user=guest).role == Membership.Role.PLAYER
    page = client.get(f"/c/{campaign.pk}/")
    assert page.status_code == 200
    assert "Quinn" in page.content.decode()
    # Opening the invitation again goes straight to the campaign.
    again = client.get(f"/join/{campaign.invite_token}/")
    assert again.status_code == 302
    assert again.url == f"/c/{campaign.pk}/"


def test_a_logged_in_user_joins_with_their_own_account(campaign, stranger):
    client = client_for(stranger)
    response = client.post(f"/join/{campaign.invite_token}/", {"display_name": "Sam"})
    assert response.status_code == 302
    assert campaign.memberships.get(user=stranger).role == Membership.Role.PLAYER
    assert client.get(f"/c/{campaign.pk}/").status_code == 200


@pytest.mark.parametrize("name", ["", "   "])
def test_joining_without_a_display_name_is_refused(campaign, name):
    users_before = get_user_model().objects.count()
    members_before = campaign.memberships.count()
    response = Client().post(f"/join/{campaign.invite_token}/", {"display_name": name})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    assert get_user_model().objects.count() == users_before
    assert campaign.memberships.count() == members_before


def test_an_unknown_invitation_is_a_404_page(campaign):
    for token in ["not-a-token", "x" * 40]:
        response = Client().get(f"/join/{token}/")
        assert response.status_code == 404
        assert "This invitation does not work" in response.content.decode()
        response = Client().post(f"/join/{token}/", {"display_name": "Mallory"})
        assert response.status_code == 404
    assert campaign.memberships.count() == 2


# Rate limits


@pytest.fixture
def one_minute(monkeypatch):
    """Every request falls in the same one-minute window, whenever the test runs."""
    monkeypatch.setattr(ratelimit, "time", types.SimpleNamespace(time=lambda: 1_800_000_030.0))


def test_the_fourth_login_attempt_in_a_minute_gets_429(settings, one_minute, owner):
    cache.clear()
    settings.COMPANION_RATE_LIMIT = 3
    client = Client()
    for _ in range(3):
        response = client.post("/login/", {"username": "olive", "password": "wrong-guess"})
        assert response.status_code == 200
    response = client.post("/login/", {"username": "olive", "password": "a-long-password-1"})
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Looking at the login page is not an attempt.
    assert client.get("/login/").status_code == 200


def test_join_and_signup_are_rate_limited_too(settings, one_minute, campaign):
    cache.clear()
    settings.COMPANION_RATE_LIMIT = 3
    client = Client()
    for _ in range(3):
        assert (
            client.post(f"/join/{campaign.invite_token}/", {"display_name": ""}).status_code == 422
        )
    assert client.post(f"/join/{campaign.invite_token}/", {"display_name": "Q"}).status_code == 429
    assert not campaign.memberships.filter(user__first_name="Q").exists()
    for _ in range(3):
        assert client.post("/signup/", {"username": ""}).status_code == 422
    response = client.post(
        "/signup/",
        {"username": "newbie", "password1": "violet-harbour-42", "password2": "violet-harbour-42"},
    )
    assert response.status_code == 429
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_a_successful_login_within_the_limit(settings, one_minute, owner):
    cache.clear()
    settings.COMPANION_RATE_LIMIT = 3
    client = Client()
    response = client.post("/login/", {"username": "olive", "password": "a-long-password-1"})
    assert response.status_code == 302
    assert client.get("/").status_code == 200
    assert "Your campaigns" in client.get("/").content.decode()


def test_login_does_not_redirect_to_another_site(owner):
    for target in ("https://evil.example/", "//evil.example/", "/c/1/"):
        response = Client().post(
            "/login/", {"username": "olive", "password": "a-long-password-1", "next": target}
        )
        assert response.status_code == 302
        assert response.url == ("/c/1/" if target == "/c/1/" else "/"), target


# Accounts


def test_a_guest_keeps_the_account_and_logs_in_with_it(campaign):
    client = Client()
    client.post(f"/join/{campaign.invite_token}/", {"display_name": "Quinn"})
    guest = get_user_model().objects.get(first_name="Quinn")
    account = client.get("/account/")
    assert account.status_code == 200
    assert "You joined as a guest" in account.content.decode()
    response = client.post("/account/", {"username": "quinn", "password": "violet-harbour-42"})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.username == "quinn"
    assert guest.has_usable_password()
    # Still logged in on this phone, and the account works on another one.
    assert client.get(f"/c/{campaign.pk}/").status_code == 200
    other_phone = Client()
    response = other_phone.post("/login/", {"username": "quinn", "password": "violet-harbour-42"})
    assert response.status_code == 302
    assert other_phone.get(f"/c/{campaign.pk}/").status_code == 200


def test_keeping_an_account_with_a_taken_username_is_refused(campaign, owner):
    client = Client()
    client.post(f"/join/{campaign.invite_token}/", {"display_name": "Quinn"})
    response = client.post("/account/", {"username": "OLIVE", "password": "violet-harbour-42"})
    assert response.status_code == 422
    assert "That username is taken." in response.content.decode()
    assert not get_user_model().objects.get(first_name="Quinn").has_usable_password()


def test_signup_creates_a_user_and_logs_them_in(db):
    client = Client()
    response = client.post(
        "/signup/",
        {
            "username": "newbie",
            "display_name": "Nina",
            "password1": "violet-harbour-42",
            "password2": "violet-harbour-42",
        },
    )
    assert response.status_code == 302
    assert response.url == "/"
    user = get_user_model().objects.get(username="newbie")
    assert user.first_name == "Nina"
    assert user.check_password("violet-harbour-42")
    assert "Your campaigns" in client.get("/").content.decode()


def test_signup_with_mismatched_passwords_is_refused(db):
    response = Client().post(
        "/signup/",
        {"username": "newbie", "password1": "violet-harbour-42", "password2": "violet-harbour-43"},
    )
    assert response.status_code == 422
    assert not get_user_model().objects.filter(username="newbie").exists()


# The account page asks for the current password


def test_changing_a_password_needs_the_current_one(owner):
    client = client_for(owner)
    page = text(client.get("/account/"))
    assert "Current password" in page
    # The username is there already: a new password alone is what most people change.
    assert 'name="username" value="olive"' in page
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
    page = text(client.get("/account/"))
    assert "Current password" not in page
    # The guest's username is the site's own: the guest picks one.
    assert 'name="username" value=' not in page
    response = client.post("/account/", {"username": "quinn", "password": "violet-harbour-42"})
    assert response.status_code == 302
    assert get_user_model().objects.get(username="quinn").check_password("violet-harbour-42")
    # From then on it is an account with a password like any other.
    response = client.post("/account/", {"username": "quinn", "password": "thief-takes-it-42"})
    assert response.status_code == 422


def test_a_guest_who_logged_out_is_told_how_to_come_back(campaign):
    """A guest has no password: the log-in page they land on says the invitation brings them
    back to their seat, in their language."""
    client = Client()
    client.post(f"/join/{campaign.invite_token}/", {"display_name": "Quinn"})
    response = client.post("/logout/", follow=True)
    assert response.redirect_chain[-1][0].startswith("/login/")
    assert "Open the campaign's invitation again" in text(response)
    page = text(Client(HTTP_ACCEPT_LANGUAGE="ja").get("/login/"))
    assert "招待" in page and "席" in page
