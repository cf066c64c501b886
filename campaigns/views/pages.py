"""The campaign's pages, all drawn the same way (`render.render_page`); a live refresh another
phone already drew is found first, with a light query (`shared.already_drawn`)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaigns.transfer import export_campaign
from campaigns.views.access import Request, member_campaign
from campaigns.views.render import render_page
from campaigns.views.shared import already_drawn


@login_required
@require_GET
def campaign_page(request: Request, pk: int, page: str = "", own: bool = False) -> HttpResponse:
    """A page of the campaign (`page`: "" the table, "history", "settings", or with `own` one of
    the game's own pages, 404 if not): the drawing another phone already made, or one made now,
    kept for the phone to show offline but for the settings. campaigns/urls.py gives each its
    page."""
    if (drawn := already_drawn(request, pk, page)) is not None:
        return drawn
    campaign, membership = member_campaign(request, pk)
    if own and page not in campaign.game_module.pages:
        raise Http404
    return render_page(request, campaign, membership, page, keep=page != "settings")


@login_required
@require_GET
def members(request: Request, pk: int) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    return render_page(request, campaign, membership, "members")


@login_required
@require_GET
def export(request: Request, pk: int) -> HttpResponse:
    campaign, _membership = member_campaign(request, pk)
    body = json.dumps(export_campaign(campaign), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(campaign.name) or 'campaign'}-{campaign.version}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
