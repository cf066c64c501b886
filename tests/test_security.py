"""What an attacker tries: a public secret key, undoing what one may not do, a stolen session,
a bag too big to work out, huge or odd requests, and limits dodged through another process."""

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.utils.safestring import mark_safe

from campaigns.changes import NotAllowed
from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import data as arkham_data
from campaigns.games.arkham.bag_page import ODDS_BUDGET
from campaigns.games.arkham.common import scenario_key
from campaigns.models import Campaign, Event, Membership, RateCount
from companion.settings import secret_key
from tests.factories import client_for, counts, make_campaign, tracker_id
from tests.journeys import HTMX, Phone, snapshot, text, upload

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
    assert re.search(r'<button type="submit" class="quiet" disabled\s+title="Undo"', page)
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


# Nothing with a lone surrogate is stored through a form either

SURROGATE_BYTES = b"\xed\xa0\x80"  # \ud800 written as UTF-8 would write it (it may not)


def storable(*texts) -> bool:
    return all(isinstance(t, str) and t.encode("utf-8") for t in texts)


def test_text_fields_posted_with_a_lone_surrogate_store_no_lone_surrogate(owner):
    client = client_for(owner)
    response = client.post(
        "/new/any/",
        b"name=Our%ED%A0%80camp&trackers=",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code in (302, 422)
    for campaign in Campaign.objects.all():
        assert storable(campaign.name, json.dumps(campaign.state, ensure_ascii=False))
    campaign = make_campaign(owner)
    notes = tracker_id(campaign, "Notes")
    boundary = "bound"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="tracker"\r\n\r\n{notes}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n'
        ).encode()
        + b"x"
        + SURROGATE_BYTES
        + f"y\r\n--{boundary}--\r\n".encode()
    )
    response = client.post(
        f"/c/{campaign.pk}/do/notes.add/",
        body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    client.post(
        f"/c/{campaign.pk}/do/campaign.rename/",
        b"name=A%ED%A0%80B%ED%B0%80",
        content_type="application/x-www-form-urlencoded",
    )
    campaign.refresh_from_db()
    assert storable(campaign.name, json.dumps(campaign.state, ensure_ascii=False))
    for event in Event.objects.filter(campaign=campaign):
        assert storable(json.dumps(event.data, ensure_ascii=False))
    for path in ("", "history/", "settings/", "export.json"):
        assert client.get(f"/c/{campaign.pk}/{path}").status_code == 200, path


def test_a_display_name_with_a_lone_surrogate_stores_none(campaign):
    client = Client()
    client.post(
        f"/join/{campaign.invite_token}/",
        b"display_name=Q%ED%A0%80",
        content_type="application/x-www-form-urlencoded",
    )
    for user in get_user_model().objects.all():
        assert storable(user.first_name, user.username)


# Campaign ids too big for the database


@pytest.mark.parametrize("number", [2**63 - 1, 2**63, 2**64, 10**30])
def test_a_campaign_id_too_big_for_the_database_is_404(owner, number):
    client = client_for(owner)
    for path in ("", "history/", "members/", "settings/", "version/", "export.json", "p/bag/"):
        assert client.get(f"/c/{number}/{path}").status_code == 404, path
    for path in ("undo/", "redo/", "do/counter.adjust/", "members/remove/", "delete/"):
        assert client.post(f"/c/{number}/{path}", {"member": 1}).status_code == 404, path


def test_a_member_id_too_big_for_the_database_is_refused(campaign, owner):
    before = snapshot(campaign)
    response = client_for(owner).post(f"/c/{campaign.pk}/members/remove/", {"member": str(2**64)})
    assert response.status_code == 422
    assert snapshot(campaign) == before


# Request bodies are capped before they are read


def test_an_import_over_the_request_limit_says_so_next_to_the_field(stranger, settings):
    settings.COMPANION_MAX_REQUEST_BYTES = 64 * 1024
    before = counts()
    response = upload(client_for(stranger), b" " * (100 * 1024))
    assert response.status_code == 413
    page = text(response)
    assert re.search(r'class="errorlist[^>]*>\s*<li>The file is larger than a campaign', page)
    assert counts() == before


def test_a_declared_body_over_the_limit_is_refused_unread(owner):
    response = Client().generic(
        "POST",
        "/login/",
        b"username=olive&password=a-long-password-1",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=str(500 * 1024 * 1024),
    )
    assert response.status_code == 413
    assert "That is too much to send at once" in text(response)
    assert "at most 6 MB" in text(response)


def raw_post(url: str, head: bytes, body_parts) -> bytes:
    """Send a POST by hand (a body the client does not finish), return what the server says."""
    parts = urlparse(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as sock:
        sock.sendall(head)
        try:
            for part in body_parts:
                sock.sendall(part)
        except OSError:
            pass  # the server answered and closed before the whole body was sent
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if b"</html>" in answer:
                break
        return answer


@pytest.mark.server
def test_the_server_answers_413_before_reading_a_huge_body(site):
    host = urlparse(site.url).netloc.encode()
    declared = (
        b"POST /import/ HTTP/1.1\r\nHost: " + host + b"\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\n"
        b"Content-Length: 524288000\r\n\r\n"
    )
    # Only 64 KB of the declared 500 MB is ever sent: the answer cannot wait for the rest.
    answer = raw_post(site.url, declared, [b"-" * 65536])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"That is too much to send at once" in answer
    chunked = (
        b"POST /login/ HTTP/1.1\r\nHost: " + host + b"\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"a" * (1024 * 1024)
    parts = [b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(7)]
    answer = raw_post(site.url, chunked, parts)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # The site goes on serving.
    assert httpx.get(site.url + "/login/").status_code == 200


# Login, sign-up and join limits: one count for every process, not reset by a forged header


def wrong_login(client, **headers):
    return client.post("/login/", {"username": "olive", "password": "wrong-guess"}, **headers)


def test_a_forged_forwarded_for_does_not_reset_the_limit(settings, owner):
    settings.COMPANION_RATE_LIMIT = 3
    client = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(3):
        assert wrong_login(client, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code == 200
    response = wrong_login(client, HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert response.status_code == 429
    # Another address is another count.
    assert wrong_login(Client(REMOTE_ADDR="203.0.113.8")).status_code == 200


def test_behind_a_trusted_proxy_the_address_it_appended_counts(settings, owner):
    settings.COMPANION_RATE_LIMIT = 3
    settings.COMPANION_TRUST_PROXY = True
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(3):
        # The client wrote the first entry itself; the proxy appended the last.
        forwarded = f"10.0.0.{n}, 203.0.113.7"
        assert wrong_login(proxy, HTTP_X_FORWARDED_FOR=forwarded).status_code == 200
    assert wrong_login(proxy, HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    # Someone else behind the same proxy is not locked out.
    assert wrong_login(proxy, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 200


def test_the_counts_are_kept_in_the_database(settings, owner):
    settings.COMPANION_RATE_LIMIT = 3
    for _ in range(3):
        wrong_login(Client())
    assert RateCount.objects.filter(key="login:127.0.0.1").get().count == 3


@pytest.fixture
def two_sites():
    """Two server processes on one database, with a limit of 4 attempts a minute."""
    from tests.journeys import Database, Site

    database = Database()
    database.env["COMPANION_RATE_LIMIT"] = "4"
    sites = [Site(database), Site(database)]
    yield sites
    for site in sites:
        site.close()
        assert "Traceback" not in site.output(), site.output()[-3000:]
    database.close()


@pytest.mark.server
def test_two_processes_share_one_limit_and_a_forged_header_does_not_reset_it(two_sites):
    phones = [Phone(site.url) for site in two_sites]
    phones[0].signup("olive")
    wrong = {"username": "olive", "password": "wrong-guess"}
    codes = []
    for n in range(4):  # alternating between the two processes, each with a forged address
        phone = phones[n % 2]
        headers = {"X-Forwarded-For": f"198.51.100.{n}"}
        codes.append(phone.post("/login/", wrong, headers=headers).status_code)
    assert codes == [200, 200, 200, 200]
    for phone in phones:
        response = phone.post("/login/", wrong, headers={"X-Forwarded-For": "192.0.2.1"})
        assert response.status_code == 429
        assert "Too many attempts" in response.text
    for phone in phones:
        phone.close()


# `manage.py check --deploy` (the README's hosting section runs it) says what a hosted site must
# not run with.


def deploy_warnings(**settings) -> list[str]:
    from django.core.checks import run_checks

    with override_settings(**settings):
        found = run_checks(include_deployment_checks=True, tags=["security"])
        without_deploy = run_checks(tags=["security"])
    assert not [m for m in without_deploy if m.id.startswith("companion.")]
    return sorted(m.id for m in found if m.id.startswith("companion."))


def test_check_deploy_warns_of_any_host_behind_https():
    assert deploy_warnings(COMPANION_HTTPS=True, ALLOWED_HOSTS=["*"]) == ["companion.W001"]
    named = ["companion.example.org"]
    assert deploy_warnings(COMPANION_HTTPS=True, ALLOWED_HOSTS=named) == []
    # A laptop on the table's network answers whatever address the phones use.
    assert deploy_warnings(COMPANION_HTTPS=False, ALLOWED_HOSTS=["*"]) == []


def test_check_deploy_warns_of_the_published_secret_key():
    assert deploy_warnings(SECRET_KEY=PUBLISHED_KEY) == ["companion.W002"]
    fallbacks = {"SECRET_KEY_FALLBACKS": [PUBLISHED_KEY]}
    assert deploy_warnings(SECRET_KEY="a-fresh-key-" + "x" * 50, **fallbacks) == ["companion.W002"]
    assert deploy_warnings(SECRET_KEY="a-fresh-key-" + "x" * 50) == []


def test_manage_py_check_deploy_says_so_for_a_site_set_up_from_the_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.pop("ALLOWED_HOSTS", None)  # the default: any host
    env.update(
        COMPANION_HTTPS="1", DJANGO_SECRET_KEY=PUBLISHED_KEY, COMPANION_DATA_DIR=str(tmp_path)
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    said = done.stdout + done.stderr
    assert "(companion.W001) ALLOWED_HOSTS is '*' on a site behind HTTPS" in said
    assert "(companion.W002) The secret key" in said
