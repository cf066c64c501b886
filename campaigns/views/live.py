"""The live layer's views: a phone learns that the campaign's version moved, by a stream of
server-sent events or, where a stream cannot run, by polling.

A stream that names the page its phone shows gets that page with the news: the live refresh
the phone would have asked for, drawn through Django's handler once for every phone that shows
the same, and encoded once (campaigns/live_push.py): the same bytes down every stream of a key,
no CSRF token inside (the phone sends its page's token in a header). With 200 phones on one
campaign that is one drawing, one message and 200 writes, not 200 requests.
"""

from __future__ import annotations

import functools
import io
import logging
import sys
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qsl, urlencode, urlsplit
from wsgiref.types import WSGIEnvironment

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.urls import Resolver404, resolve
from django.views.decorators.http import require_GET

from campaigns import live, live_push, live_sessions
from campaigns.games import GAMES
from campaigns.models import Membership
from campaigns.views.access import Request, member_campaign
from campaigns.views.shared import PUSH, UNSHARED
from companion.phone_time import COOKIE as ZONE_COOKIE
from companion.phone_time import zone_of

log = logging.getLogger(__name__)

# The pages a stream pushes: those whose live refresh is shared (not the members page).
PUSHED = {"campaign", "game-page", "history", "settings"} - UNSHARED


@login_required
@require_GET
def version(request: Request, pk: int) -> JsonResponse:
    """The polling fallback: the campaign's version, for phones that cannot hold a stream, and
    the member's role (a page drawn for another role is drawn again, as a stream's is)."""
    campaign, membership = member_campaign(request, pk)
    return JsonResponse({"version": campaign.version, "role": membership.role})


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
    return event_stream(request, watch, current, pusher(request, watch, game))


def signed_out() -> HttpResponse:
    """The stream of a phone whose session ended (logged out, expired, flushed): it says so,
    and the phone loads its page again, which asks it to log in."""
    response = HttpResponse(
        live.message("gone", {"why": "login"}), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    return response


Push = Callable[[int], Awaitable["live_push.Pushed | None"]]

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


def pusher(request: Request, watch: live.Watch, game: str) -> Push | None:
    """What draws the page the stream's phone shows (its `page`: path and query), or None when
    it names none this stream may push: then the phone hears the version and asks itself.

    The page is drawn with only the query parameters it reads, in one order: addresses that
    differ in any other way show the same, and share one drawing (campaigns/views/shared.py,
    which also bounds how many distinct drawings one campaign version gets). It is drawn as the
    phone's own live refresh would be, through Django's handler and middleware
    (`draw_through_django`)."""
    pk = watch.campaign_id
    address = request.GET.get("page", "")
    if not address or len(address) > 1000:
        return None
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

    environ = push_environ(request, parts.path, query)
    # What the page's bytes depend on besides the version (campaigns/views/shared.py's key):
    # the language and time zone the middleware found for this phone, and the member's role.
    language = getattr(request, "LANGUAGE_CODE", "")
    key = (parts.path, query, language, str(zone_of(request.COOKIES.get(ZONE_COOKIE))), watch.role)

    def draw() -> tuple[int, str] | None:
        return draw_through_django(environ)

    async def push(version: int) -> live_push.Pushed | None:
        return await live_push.pushed(watch.hub, pk, version, key, draw)

    return push


# The headers of the stream's request a pushed page's request carries: who asks (the session
# cookie, the time zone cookie), in which language, and at which address (the host, and the
# scheme a proxy in front says). Nothing else of the phone's request is read by a page.
PUSH_HEADERS = ("HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE", "HTTP_HOST", "HTTP_X_FORWARDED_PROTO")


def push_environ(request: Request, path: str, query: str) -> WSGIEnvironment:
    """The WSGI environ of the live refresh the stream's phone would ask for: `path` and the
    reduced `query`, with the stream request's headers that say who asks and how."""
    environ: WSGIEnvironment = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": str(request.META.get("SERVER_NAME", "localhost")),
        "SERVER_PORT": str(request.META.get("SERVER_PORT", "80")),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": str(request.META.get("REMOTE_ADDR", "")),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https" if request.is_secure() else "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "HTTP_HX_REQUEST": "true",
        "HTTP_X_LIVE_REFRESH": "true",
        # A key no client can send (a header's name starts HTTP_); WSGIRequest.META is the
        # environ, so the view reads it there (campaigns/views/shared.py bounds the drawings).
        PUSH: True,
    }
    for name in PUSH_HEADERS:
        if name in request.META:
            environ[name] = str(request.META[name])
    return environ


@functools.cache
def page_handler() -> WSGIHandler:
    """Django's own handler, as a WSGI server calls it (`get_wsgi_application()`, public API).

    Why WSGI and not Django's ASGIHandler: the push is drawn in one of the threads kept for live
    drawings (LIVE_LANES, campaigns/views/shared.py), and the WSGI handler runs the whole
    request, middleware included, synchronously in the thread that calls it: one hop from the
    event loop. The ASGI handler would hand each sync middleware to a thread and back (about
    twenty hops), and hold a thread-sensitive context for it. A request assembled by hand and
    passed to the view skipped the middleware (sessions, language, time zone, authentication)
    and had to copy their work; this is the request the phone's own live refresh would make.
    tests/test_live_push.py pins that a push runs the middleware and refuses a removed member."""
    return get_wsgi_application()


def said_nothing(data: bytes) -> None:
    pass


def draw_through_django(environ: WSGIEnvironment) -> tuple[int, str] | None:
    """The page `environ` asks for, drawn through Django's handler by the WSGI protocol: its
    version and HTML, or None when it is not a page to push (the member was removed, the page
    is gone, too many drawings this version: the phone hears the version and asks itself)."""
    said: list[str] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: object = None
    ) -> Callable[[bytes], object]:
        said.append(status)
        said.extend(value for name, value in headers if name.lower() == "x-campaign-version")
        return said_nothing  # (WSGI's write: Django answers through the iterable instead)

    try:
        response = page_handler()({**environ, "wsgi.input": io.BytesIO(b"")}, start_response)
        try:
            body = b"".join(response)
        finally:
            # request_finished: Django closes this thread's connections that are done with.
            close = getattr(response, "close", None)  # (the WSGI protocol's optional close)
            if close is not None:
                close()
    except Exception:
        log.exception("Could not draw the page a stream pushes")
        return None
    if len(said) != 2 or not said[0].startswith("200 "):
        return None
    return int(said[1]), body.decode()
