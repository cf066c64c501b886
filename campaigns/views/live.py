"""The live layer's views: a phone learns that the campaign's version moved, by a stream of
server-sent events or, where a stream cannot run, by polling.

A stream that names the page its phone shows gets that page with the news: the live refresh
the phone would have asked for, drawn once for every phone that shows the same
(campaigns/views/shared.py) and sent down each stream with its phone's own CSRF token. With 200
phones on one campaign that is one drawing and 200 writes, not 200 requests.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl, urlencode, urlsplit

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import close_old_connections, connection
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    QueryDict,
    StreamingHttpResponse,
)
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from campaigns import live, live_sessions
from campaigns.games import GAMES
from campaigns.models import Membership
from campaigns.views.access import Request, member_campaign
from campaigns.views.shared import LIVE_LANES, PUSH, UNSHARED
from companion.phone_time import COOKIE as ZONE_COOKIE
from companion.phone_time import zone_of

log = logging.getLogger(__name__)

# The pages a stream pushes: those whose live refresh is shared (not the members page).
PUSHED = {"campaign", "game-page", "history", "settings"} - UNSHARED


@login_required
@require_GET
def version(request: Request, pk: int) -> JsonResponse:
    """The polling fallback: the campaign's version, for phones that cannot hold a stream."""
    campaign, _membership = member_campaign(request, pk)
    return JsonResponse({"version": campaign.version})


async def stream(request: Request, pk: int) -> HttpResponseBase:
    """Server-sent events: one `version` message whenever the campaign's version moves.

    The process's one listener (campaigns.live) wakes the stream, so a change made through any
    server process reaches every phone, and a phone waiting for news costs no query.
    """
    if request.method != "GET":
        return HttpResponse(status=405)
    user = await request.auser()
    if not user.is_authenticated:
        return signed_out()
    # Listen first, then read: a change in between is heard, not lost.
    watch = live.hub().watch(pk, user.pk, request.session.session_key)
    opened = await sync_to_async(open_watch)(watch, user, request.GET.get("role", ""))
    if opened is None:
        watch.close()
        raise Http404
    current, game = opened
    watch.opened = True
    if watch.doubt:  # the member's role or account changed while the stream opened
        await watch.hub.recheck([watch])
    return event_stream(request, watch, current, pusher(request, user, pk, game))


def signed_out() -> HttpResponse:
    """The stream of a phone whose session ended (logged out, expired, flushed): it says so,
    and the phone loads its page again, which asks it to log in."""
    response = HttpResponse(
        live.message("gone", {"why": "login"}), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    return response


Push = Callable[[int], Awaitable[tuple[int, str] | None]]

# The GET parameters the site's own pushed pages read: the history's page number
# (render.history_context). A game's pages say theirs (games.base.Page.query).
SITE_QUERY = {"history": frozenset({"page"})}


def page_query(url_name: str, page: str, game: str) -> frozenset[str]:
    """The GET parameters the campaign page `url_name` (and, for a game's page, its slug)
    reads."""
    if url_name == "campaign":
        page = ""
    elif url_name != "game-page":
        return SITE_QUERY.get(url_name, frozenset())
    return GAMES[game].query_for(page) if game in GAMES else frozenset()


def event_stream(
    request: Request, watch: live.Watch, current: int, push: Push | None = None
) -> StreamingHttpResponse:
    """The stream's response: from the version the page shows (`v`) on."""
    try:
        last_seen = int(request.GET.get("v", "-1"))
    except ValueError:
        last_seen = -1
    response = StreamingHttpResponse(
        live.messages(watch, current, last_seen, push), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    # Compressing would hold messages back in the gzip buffer.
    response["Content-Encoding"] = "identity"
    return response


def open_watch(watch: live.Watch, user, page_role: str) -> tuple[int, str] | None:
    """The campaign's version and game if the user is a member (the stream then holds no
    connection). The watch learns what the stream must keep following: the member's role, the
    session's expiry and what the user's password makes of a session
    (campaigns.live_sessions.refused).
    A page drawn for another role than the member's now (`page_role`, sent by live.js) is
    drawn again at once."""
    try:
        row = (
            Membership.objects.filter(campaign_id=watch.campaign_id, user=user)
            .values_list("campaign__version", "campaign__game", "role")
            .first()
        )
        expires = (
            live_sessions.session_model()
            .objects.filter(session_key=watch.session_key)
            .values_list("expire_date", flat=True)
            .first()
        )
    finally:
        if not connection.in_atomic_block:  # (a test's transaction)
            connection.close()
    if row is None:
        return None
    version, game, watch.role = row
    watch.auth_hash, watch.password = user.get_session_auth_hash(), user.password
    if expires is None:
        watch.end("login")  # (flushed since this request read it)
    elif page_role and page_role != watch.role:
        watch.end("role")
    else:
        watch.expires = expires.timestamp()
    return version, game


def pusher(request: Request, user, pk: int, game: str) -> Push | None:
    """What draws the page the stream's phone shows (its `page`: path and query), or None when
    it names none this stream may push: then the phone hears the version and asks itself.

    The page is drawn with only the query parameters it reads, in one order: addresses that
    differ in any other way show the same, and share one drawing (campaigns/views/shared.py,
    which also bounds how many distinct drawings one campaign version gets)."""
    address = request.GET.get("page", "")
    if not address or len(address) > 1000 or "CSRF_COOKIE" not in request.META:
        return None  # (no CSRF cookie: a token drawn now would not match the phone's forms)
    parts = urlsplit(address)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    if (
        match.namespace != "campaigns"
        or match.url_name not in PUSHED
        or match.kwargs.get("pk") != pk
    ):
        return None
    reads = page_query(match.url_name, match.kwargs.get("page", ""), game)
    given = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode(sorted((name, value) for name, value in given if name in reads))
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language()
    zone = zone_of(request.COOKIES.get(ZONE_COOKIE))

    def draw(version: int) -> tuple[int, str] | None:
        page = Request()
        page.method = "GET"
        page.path = page.path_info = parts.path
        page.META = {
            **request.META,
            "REQUEST_METHOD": "GET",
            "PATH_INFO": parts.path,
            "QUERY_STRING": query,
            PUSH: True,  # (no client can send this: a header's name starts HTTP_)
            "HTTP_HX_REQUEST": "true",
            "HTTP_X_LIVE_REFRESH": "true",
        }
        page.GET = QueryDict(query)
        page.COOKIES = request.COOKIES
        page.user = user
        page.session = request.session
        page.LANGUAGE_CODE = language
        page.htmx = HtmxDetails(page)
        page.resolver_match = match
        try:
            with translation.override(language), timezone.override(zone):
                response = match.func(page, *match.args, **match.kwargs)
        except (Http404, PermissionDenied):
            return None  # the stream ends when the member is removed
        except Exception:
            log.exception("Could not draw the page a stream pushes")
            return None
        finally:
            if not connection.in_atomic_block:  # (a test's transaction)
                close_old_connections()
        if response.status_code != 200 or "X-Campaign-Version" not in response:
            return None
        return int(response["X-Campaign-Version"]), response.content.decode()

    async def push(version: int) -> tuple[int, str] | None:
        return await LIVE_LANES.run(pk, draw, version)

    return push
