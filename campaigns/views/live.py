"""The live layer's views: a phone learns that the campaign's version moved, by a stream of
server-sent events or, where a stream cannot run, by polling."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.views.decorators.http import require_GET

from campaigns import live
from campaigns.models import Membership
from campaigns.views.access import member_campaign


@login_required
@require_GET
def version(request: HttpRequest, pk: int) -> JsonResponse:
    """The polling fallback: the campaign's version, for phones that cannot hold a stream."""
    campaign, _membership = member_campaign(request, pk)
    return JsonResponse({"version": campaign.version})


async def stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Server-sent events: one `version` message whenever the campaign's version moves.

    The process's one listener (campaigns.live) wakes the stream, so a change made through any
    server process reaches every phone, and a phone waiting for news costs no query.
    """
    if request.method != "GET":
        return HttpResponse(status=405)
    user = await request.auser()
    if not user.is_authenticated:
        raise Http404
    # Listen first, then read: a change in between is heard, not lost.
    watch = live.hub().watch(pk, user.pk)
    current = await sync_to_async(member_version)(pk, user)
    if current is None:
        watch.close()
        raise Http404
    return event_stream(request, watch, current)


def event_stream(request: HttpRequest, watch: live.Watch, current: int) -> StreamingHttpResponse:
    """The stream's response: from the version the page shows (`v`) on."""
    try:
        last_seen = int(request.GET.get("v", "-1"))
    except ValueError:
        last_seen = -1
    response = StreamingHttpResponse(
        live.messages(watch, current, last_seen), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    # Compressing would hold messages back in the gzip buffer.
    response["Content-Encoding"] = "identity"
    return response


def member_version(pk: int, user) -> int | None:
    """The campaign's version if the user is a member; the stream then holds no connection."""
    try:
        return (
            Membership.objects.filter(campaign_id=pk, user=user)
            .values_list("campaign__version", flat=True)
            .first()
        )
    finally:
        if not connection.in_atomic_block:  # (a test's transaction)
            connection.close()
