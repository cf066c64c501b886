"""Who may see and change a campaign. Every campaign view finds the campaign through the user's
membership: a campaign the user does not belong to does not exist for them (404)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from campaigns.models import Campaign, Membership
from companion import taps


class Request(HttpRequest):
    """A request as the middleware leaves it for a view (django-htmx's `request.htmx`)."""

    htmx: HtmxDetails


class SignedInRequest(Request):
    """A request to a view behind `@login_required`: its user has an account."""

    user: User


def member_campaign(
    request: HttpRequest, pk: int, change: bool = False
) -> tuple[Campaign, Membership]:
    """The campaign and the user's membership of it; 404 for anyone who is not a member.

    A page needs the undo bar's events with it; a change reads them after it is applied."""
    related = ["campaign"]
    if not change:
        related += ["campaign__undo_top", "campaign__redo_top", "campaign__redo_top__target"]
    membership = (
        Membership.objects.select_related(*related)
        .filter(campaign_id=pk, user=request.user)
        .first()
        if request.user.is_authenticated
        else None
    )
    if membership is None:
        raise Http404
    membership.seen()
    if change and not membership.can_change:
        raise PermissionDenied(_("Viewers can look but not change the campaign."))
    if change:  # its next changes count towards the campaign's tap ceiling
        taps.member(request, pk)
    return membership.campaign, membership


def owner_campaign(request: HttpRequest, pk: int) -> tuple[Campaign, Membership]:
    campaign, membership = member_campaign(request, pk)
    if not membership.is_owner:
        raise PermissionDenied(_("Only the owner can do that."))
    return campaign, membership
