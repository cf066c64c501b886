"""At the table: invitations a phone can open, times in the phone's own zone, and a site that
can be added to a phone's home screen."""

import json

from django.contrib.staticfiles import finders

from campaigns.models import Event
from tests import factories
from tests.factories import client_for
from tests.journeys import assert_refused, text


def test_an_invitation_made_at_the_loopback_address_names_the_lan_address(
    campaign, owner, settings
):
    settings.COMPANION_LAN_ADDRESS = "192.168.1.20"
    for host in ("127.0.0.1:8000", "localhost:8000"):
        page = text(client_for(owner).get(f"/c/{campaign.pk}/members/", HTTP_HOST=host))
        assert f"http://192.168.1.20:8000/join/{campaign.invite_token}/" in page
        assert f"//{host}/join/" not in page
    # A phone that came by the LAN address (or a hosted site's name) gets that address.
    page = text(client_for(owner).get(f"/c/{campaign.pk}/members/", HTTP_HOST="table.lan:8000"))
    assert f"http://table.lan:8000/join/{campaign.invite_token}/" in page


def test_without_a_lan_address_the_invitation_keeps_the_address_used(campaign, owner, settings):
    settings.COMPANION_LAN_ADDRESS = ""
    page = text(client_for(owner).get(f"/c/{campaign.pk}/members/", HTTP_HOST="127.0.0.1:8000"))
    assert f"http://127.0.0.1:8000/join/{campaign.invite_token}/" in page


def one_change_made_at(owner, hour: int):
    """A campaign whose one change was made on 1 July 2026 at hour:05 (UTC)."""
    campaign = factories.campaign(
        owner=owner, events=[("counter.adjust", {"tracker": 1, "delta": 1})]
    )
    event = Event.objects.get(campaign=campaign, seq=1)
    event.created = event.created.replace(year=2026, month=7, day=1, hour=hour, minute=5)
    event.save(update_fields=["created"])
    return campaign


def test_history_shows_times_in_the_phone_time_zone(owner, settings):
    settings.TIME_ZONE = "UTC"
    campaign = one_change_made_at(owner, 12)
    client = client_for(owner)
    assert "12:05" in text(client.get(f"/c/{campaign.pk}/history/"))
    client.cookies["tz"] = "Asia/Tokyo"
    tokyo = text(client.get(f"/c/{campaign.pk}/history/"))
    assert "21:05" in tokyo and "12:05" not in tokyo
    # A cookie that names no time zone is ignored, never an error.
    client.cookies["tz"] = "Mars/Olympus_Mons"
    assert "12:05" in text(client.get(f"/c/{campaign.pk}/history/"))


def test_history_dates_read_the_same_to_every_reader(owner, settings):
    """English's short date was 07/01/2026: the 1st of July to an American, the 7th of January
    to a British player at the same table. The month is named; Japanese and Chinese put the
    year first, as their readers write it."""
    settings.TIME_ZONE = "UTC"
    campaign = one_change_made_at(owner, 21)
    client = client_for(owner)
    for language, when in (
        ("en", ">1 Jul 2026, 21:05</time>"),
        ("ja", ">2026/07/01 21:05</time>"),
        ("zh-hans", ">2026年7月1日 21:05</time>"),
    ):
        page = text(client.get(f"/c/{campaign.pk}/history/", HTTP_ACCEPT_LANGUAGE=language))
        assert when in page, language


def test_the_site_has_a_web_app_manifest_with_our_own_icons(client, campaign, owner):
    page = text(client_for(owner).get(f"/c/{campaign.pk}/"))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Companion"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/icons/")
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_removing_a_member_asks_first(campaign, owner, player):
    client = client_for(owner)
    page = text(client.get(f"/c/{campaign.pk}/members/"))
    assert "Remove <bdi>Pat</bdi> from the campaign?" in page
    membership = campaign.memberships.get(user=player)
    url = f"/c/{campaign.pk}/members/remove/"
    assert_refused(
        client, campaign, url, {"member": membership.pk}, message="Confirm the removal first."
    )
    response = client.post(url, {"member": membership.pk, "confirm": "yes"})
    assert response.status_code == 302
    assert not campaign.memberships.filter(user=player).exists()


def test_default_tracker_names_read_in_each_language_and_typed_names_never(owner, player):
    from django.utils import translation

    campaign = factories.campaign(owner=owner, members={player: "player"})
    trackers = {t["name"]: t for t in campaign.state["trackers"]}
    # Any game's Notes and Results are stored in English whoever made the campaign.
    assert trackers["Notes"]["shipped"] is True and trackers["Results"]["shipped"] is True
    campaign.apply("tracker.add", {"kind": "counter", "name": "Life"}, owner)
    campaign.refresh_from_db()
    life = campaign.state["trackers"][-1]["id"]
    campaign.apply("counter.adjust", {"tracker": life, "delta": 1}, owner)
    campaign.apply(
        "notes.add", {"tracker": trackers["Notes"]["id"], "text": "Met the witch"}, owner
    )
    client = client_for(player)
    with translation.override("ja"):
        client.cookies["django_language"] = "ja"
        table = text(client.get(f"/c/{campaign.pk}/"))
        history = text(client.get(f"/c/{campaign.pk}/history/"))
    assert ">メモ</h2>" in table and ">Notes</h2>" not in table
    assert "ライフ" not in history and "Life" in history
    assert "メモ" in history


def test_a_list_has_one_take_out_form_and_its_add_form_on_top(owner_client, campaign, owner):
    banished = next(t for t in campaign.state["trackers"] if t["kind"] == "list")
    for card in ("Ashcan", "Bolt", "Crow"):
        campaign.apply("list.add", {"tracker": banished["id"], "text": card}, owner)
    page = text(owner_client.get(f"/c/{campaign.pk}/"))
    region = page[page.index(f'id="tracker-{banished["id"]}"') :]
    region = region[: region.index("</section>")]
    assert region.count('/do/list.remove/" hx-post') == 1  # one form, not one per entry
    assert region.index("/do/list.add/") < region.index("Ashcan")
    for card in ("Ashcan", "Bolt", "Crow"):
        assert f">{card}</option>" in region
