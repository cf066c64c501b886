"""The live layer's views: a phone learns that the campaign's version moved, by a stream of
server-sent events or, where a stream cannot run, by polling."""

from __future__ import annotations

import asyncio
import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.views.decorators.http import require_GET

from campaigns.models import Campaign, Membership
from campaigns.views.access import member_campaign


@login_required
@require_GET
def version(request: HttpRequest, pk: int) -> JsonResponse:
    """The polling fallback: the campaign's version, for phones that cannot hold a stream."""
    campaign, _membership = member_campaign(request, pk)
    return JsonResponse({"version": campaign.version})


async def stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Server-sent events: one `version` message whenever the campaign's version moves.

    The stream reads the version from the database, so a change made through any server process
    (several behind a proxy on one PostgreSQL) reaches every phone.
    """
    user = await request.auser()
    if request.method != "GET":
        return HttpResponse(status=405)
    if not user.is_authenticated:
        raise Http404
    membership = await Membership.objects.filter(campaign_id=pk, user=user).afirst()
    if membership is None:
        raise Http404
    try:
        last_seen = int(request.GET.get("v", "-1"))
    except ValueError:
        last_seen = -1

    async def events():
        nonlocal last_seen
        interval = settings.COMPANION_STREAM_INTERVAL
        loop = asyncio.get_running_loop()
        ends = loop.time() + settings.COMPANION_STREAM_LIFETIME
        quiet = 0.0
        yield "retry: 1000\n\n"
        while loop.time() < ends:
            current = (
                await Campaign.objects.filter(pk=pk).values_list("version", flat=True).afirst()
            )
            if current is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if current != last_seen:
                last_seen = current
                quiet = 0.0
                yield f"event: version\ndata: {json.dumps({'version': current})}\n\n"
            elif quiet >= 15:
                quiet = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(interval)
            quiet += interval

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    # Compressing would hold messages back in the gzip buffer.
    response["Content-Encoding"] = "identity"
    return response
