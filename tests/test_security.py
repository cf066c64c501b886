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

from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import data as arkham_data
from campaigns.games.arkham.bag_page import ODDS_BUDGET
from campaigns.games.arkham.common import scenario_key
from campaigns.models import Campaign, Membership, NotAllowed
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


# A bag too big to work out answers with a message instead of holding the server

NON_POOL = [t for t in chaos.TOKENS if t not in ("bless", "curse")]
HUGE_BAG = {**{t: 20 for t in NON_POOL}, "bless": 10, "curse": 10}  # 360 tokens
CHAINING = {
    "skull": {"modifier": -1, "reveal_another": True},
    "cultist": {"modifier": -2, "reveal_another": True},
    "tablet": {"modifier": -3, "reveal_another": True},
    "elder_thing": {"modifier": -4, "reveal_another": True},
    "elder_sign": {"modifier": 3, "reveal_another": True},
}


def test_the_engine_stops_at_its_budget():
    small = {"0": 2, "-1": 1, "bless": 1}
    exact = chaos.success_probability(small, 2, 2)
    assert chaos.success_probability(small, 2, 2, budget=10_000) == exact
    for call in (
        lambda budget: chaos.success_probability(small, 2, 2, budget=budget),
        lambda budget: chaos.pass_table(small, None, 2, budget=budget),
        lambda budget: chaos.outcome_distribution(small, budget=budget),
    ):
        with pytest.raises(chaos.OddsTooLong):
            call(1)
    with pytest.raises(chaos.ChaosError):
        chaos.success_probability(small, 2, 2, budget=-1)


def test_a_huge_bag_is_over_the_pages_budget_and_the_fullest_real_bag_is_within_it():
    with pytest.raises(chaos.OddsTooLong):
        chaos.pass_table(HUGE_BAG, CHAINING, 2, budget=ODDS_BUDGET)
    # Every token the game provides, every symbol revealing another with its own value.
    assert chaos.pass_table(arkham_data.TOKEN_LIMITS, CHAINING, 2, budget=ODDS_BUDGET)


def test_the_bag_page_says_the_odds_are_too_long_for_a_huge_bag(owner):
    game = GAMES["arkham"]
    setup = {"campaign": "notz", "difficulty": "standard"}
    state = game.initial_state(setup)
    state.update(name="Huge", archived=False, bag=HUGE_BAG)
    state.setdefault("effects", {})[scenario_key(state)] = CHAINING
    campaign = Campaign.objects.create(
        game="arkham", name="Huge", setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.OWNER)
    response = client_for(owner).get(f"/c/{campaign.pk}/p/bag/?skill=4&difficulty=3")
    assert response.status_code == 200
    page = text(response)
    assert "The odds are too long to compute for this bag." in page
    assert 'class="pct"' not in page and "Skill 4 against 3" not in page
    # In Japanese too.
    response = client_for(owner).get(f"/c/{campaign.pk}/p/bag/", HTTP_ACCEPT_LANGUAGE="ja")
    assert "この袋は大きすぎて、確率を正確に計算できません。" in text(response)
