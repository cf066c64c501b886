"""Two members of one name (issue 21, point 5): joining under a name already in the campaign says
so and offers the guest's seat back; the members page says when each was last seen; the home
page tells campaigns of one name apart."""

import datetime
import html
import re

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from campaigns.models import Campaign, Membership
from tests import factories
from tests.factories import client_for
from tests.journeys import assert_refused, text


def join(client, campaign, name, **extra):
    return client.post(f"/join/{campaign.invite_token}/", {"display_name": name, **extra})


def ken_joins(campaign):
    cache.clear()  # the join limit counts per address
    first = Client()
    assert join(first, campaign, "Ken").status_code == 302
    return first, campaign.memberships.get(user__first_name="Ken")


def test_joining_under_a_name_already_taken_is_refused_with_the_seat_to_take_back(campaign):
    _old_phone, seat = ken_joins(campaign)
    response = assert_refused(
        Client(),
        campaign,
        f"/join/{campaign.invite_token}/",
        {"display_name": " ken "},
        message="Someone in this campaign is already called “ken”. If that is you on another "
        "phone, take your seat back; if not, pick another name.",
    )
    page = html.unescape(text(response))
    assert "That's me: take my seat back" in page
    assert f'name="seat" value="{seat.pk}"' in page
    assert campaign.memberships.filter(user__first_name__iexact="ken").count() == 1


def test_taking_the_seat_back_moves_it_to_the_new_phone_with_its_role(campaign, owner):
    old_phone, seat = ken_joins(campaign)
    seat.role = Membership.Role.VIEWER
    seat.save()
    members = campaign.memberships.count()
    new_phone = Client()
    response = join(new_phone, campaign, "Ken", seat=seat.pk)
    assert response.status_code == 302
    assert campaign.memberships.count() == members
    seat.refresh_from_db()
    assert seat.role == Membership.Role.VIEWER
    assert new_phone.get(f"/c/{campaign.pk}/").status_code == 200
    assert old_phone.get(f"/c/{campaign.pk}/").status_code == 404
    page = html.unescape(text(client_for(owner).get(f"/c/{campaign.pk}/members/")))
    assert len(re.findall(r'<li><span class="text"><bdi>Ken</bdi>', page)) == 1


def test_the_owners_seat_or_an_account_with_a_password_is_not_taken_back(campaign, owner, player):
    cache.clear()
    for member in (owner, player):  # "Olive" (owner) and "Pat" (an account with a password)
        seat = campaign.memberships.get(user=member)
        response = assert_refused(
            Client(),
            campaign,
            f"/join/{campaign.invite_token}/",
            {"display_name": member.first_name},
            message=f"Someone in this campaign is already called “{member.first_name}”: pick "
            "another name.",
        )
        assert "take my seat back" not in text(response)
        assert_refused(
            Client(),
            campaign,
            f"/join/{campaign.invite_token}/",
            {"display_name": member.first_name, "seat": seat.pk},
            message="That seat cannot be taken back from here: pick another name.",
        )


def test_a_malformed_or_foreign_seat_is_refused_and_changes_nothing(campaign, owner):
    _old_phone, seat = ken_joins(campaign)
    elsewhere = factories.campaign("any", owner=owner)
    other = Membership.objects.create(
        campaign=elsewhere, user=get_user_model().objects.create_user("guest-x", first_name="Ken")
    )
    for value in ("-1", "x", "9" * 30, str(other.pk)):
        response = assert_refused(
            Client(),
            campaign,
            f"/join/{campaign.invite_token}/",
            {"display_name": "Ken", "seat": value},
            message="",
        )
        assert 'class="error"' in text(response)
    # The seat under another name is not taken by naming it.
    assert_refused(
        Client(),
        campaign,
        f"/join/{campaign.invite_token}/",
        {"display_name": "Kenny", "seat": seat.pk},
        message="That seat cannot be taken back from here: pick another name.",
    )


def test_the_members_page_says_when_each_member_was_last_seen(campaign, owner, player):
    cache.clear()
    Client().post(f"/join/{campaign.invite_token}/", {"display_name": "Dana"})
    Membership.objects.filter(user=player).update(
        last_seen=timezone.now() - datetime.timedelta(days=3)
    )
    page = html.unescape(text(client_for(owner).get(f"/c/{campaign.pk}/members/")))
    assert re.search(
        r'Pat</bdi> <span class="muted">· player\s*· <span class="seen">seen 3\xa0days ago', page
    )
    assert page.count("here now") == 2  # the owner, who opened the page, and Dana, who joined


def test_last_seen_is_written_at_most_once_a_minute(campaign, owner):
    client = client_for(owner)
    client.get(f"/c/{campaign.pk}/")
    seat = campaign.memberships.get(user=owner)
    first = seat.last_seen
    assert first is not None
    client.get(f"/c/{campaign.pk}/")
    seat.refresh_from_db()
    assert seat.last_seen == first
    Membership.objects.filter(pk=seat.pk).update(last_seen=first - datetime.timedelta(minutes=2))
    client.get(f"/c/{campaign.pk}/")
    seat.refresh_from_db()
    assert seat.last_seen > first - datetime.timedelta(minutes=1)


def test_the_home_page_tells_campaigns_of_one_name_apart(owner, player):
    one = factories.campaign("any", owner=owner, name="Tuesday")
    two = factories.campaign(
        "eldritch", owner=owner, name="Tuesday", members={player: Membership.Role.PLAYER}
    )
    page = html.unescape(text(client_for(owner).get("/")))
    assert page.count("Tuesday") == 2
    assert "Any game" in page and "Eldritch Horror" in page
    assert page.count("Changed just now") == 2
    Campaign.objects.filter(pk=one.pk).update(updated=timezone.now() - datetime.timedelta(hours=3))
    assert "Changed 3\xa0hours ago" in html.unescape(text(client_for(owner).get("/")))
    assert f'href="/c/{two.pk}/"' in page and f'href="/c/{one.pk}/"' in page
    assert page.count("Olive</span>") == 1 and page.count("Olive, Pat</span>") == 1
