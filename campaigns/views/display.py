"""The table display: a read-only page for a tablet or a TV in the middle of the table.

It opens from its own link (and QR code, on the members page) without an account: the link
carries a token made from the campaign and its invitation, so making a new invitation link also
retires the display's. It shows only what every player sees on the table anyway (never the
order of a deck, never the next token), has no controls, and follows the campaign live by the
same stream as the phones.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import Http404, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.views.decorators.http import require_GET

from campaigns import live
from campaigns.games.base import Viewing
from campaigns.models import Campaign
from campaigns.views.access import Request
from campaigns.views.live import event_stream


def display_token(campaign: Campaign) -> str:
    key = f"{campaign.pk}:{campaign.invite_token}"
    return salted_hmac("table-display", key, algorithm="sha256").hexdigest()[:24]


def display_url(campaign: Campaign) -> str:
    return reverse("campaigns:display", args=[campaign.pk, display_token(campaign)])


def displayed(pk: int, token: str) -> Campaign:
    campaign = Campaign.objects.filter(pk=pk).first()
    if campaign is None or not constant_time_compare(token, display_token(campaign)):
        raise Http404
    return campaign


def displayed_once(pk: int, token: str) -> Campaign:
    """`displayed`, for a stream: its connection goes back to the pool at once. The stream's
    thread is not a request's, which Django closes at the end: each display stream opened once
    kept a PostgreSQL connection of the pool's sixteen, and the sixteenth stopped the site
    (found by tests/test_hostile_headers.py on PostgreSQL)."""
    try:
        return displayed(pk, token)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction)
            connection.close()


@require_GET
def table_display(request: Request, pk: int, token: str) -> HttpResponse:
    campaign = displayed(pk, token)
    game = campaign.game_module
    state = campaign.state
    context = {
        "campaign": campaign,
        "game": game,
        "state": state,
        "stream_url": reverse("campaigns:display-stream", args=[pk, token]),
        "poll_url": reverse("campaigns:display-version", args=[pk, token]),
        **game.context(campaign, state, Viewing(page="display")),
    }
    template = "display.html#content" if request.htmx else "display.html"
    response = render(request, template, context)
    response["X-Campaign-Version"] = str(campaign.version)
    return response


@require_GET
def display_version(request: Request, pk: int, token: str) -> JsonResponse:
    return JsonResponse({"version": displayed(pk, token).version})


async def display_stream(request: Request, pk: int, token: str) -> HttpResponseBase:
    """The phones' stream, for the display: no member behind it (it is never told "removed")."""
    if request.method != "GET":
        return HttpResponse(status=405)
    watch = live.hub().watch(pk, None)
    try:
        campaign = await sync_to_async(displayed_once)(pk, token)
    except Http404:
        watch.close()
        raise
    watch.invite = campaign.invite_token
    return event_stream(request, watch, campaign.version)
