"""Requests larger than the site takes are refused before their body is read.

Django's ASGI handler reads the whole body (to disk past FILE_UPLOAD_MAX_MEMORY_SIZE) before any
middleware runs, so the body is capped in two places: `cap_request_bodies` wraps the ASGI
application and stops reading at COMPANION_MAX_REQUEST_BYTES (a declared Content-Length over it
is not read at all; a chunked body is cut there), and `RequestSizeMiddleware` answers such a
request with a 413 page (the import page with the message next to its field, for an import).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from companion.middleware import Response, SyncAndAsyncMiddleware

TOO_LARGE = "companion.body_too_large"

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def cap_request_bodies(app: ASGIApp) -> ASGIApp:
    """The ASGI application, reading at most COMPANION_MAX_REQUEST_BYTES of any request body."""

    async def capped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.COMPANION_MAX_REQUEST_BYTES
        scope = dict(scope)
        declared = declared_length(scope)
        received = 0
        cut = False

        async def limited() -> Message:
            nonlocal received, cut
            if cut:
                # The body is left unread; wait for the client to go (or for the answer to end
                # the request, which cancels this).
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return message
            if declared is not None and declared > limit:
                cut = True
                scope[TOO_LARGE] = True
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    cut = True
                    scope[TOO_LARGE] = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                if not message.get("more_body", False):
                    cut = True  # the whole body was read: what follows is only a disconnect
            return message

        return await app(scope, limited, send)

    return capped


class RequestSizeMiddleware(SyncAndAsyncMiddleware):
    """A 413 page for a body over the limit, before anything reads it (sync and async: see
    companion/middleware.py)."""

    def sync_call(self, request: HttpRequest) -> Response:
        if over_limit(request):
            return too_large(request, settings.COMPANION_MAX_REQUEST_BYTES)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if over_limit(request):
            return await sync_to_async(too_large)(request, settings.COMPANION_MAX_REQUEST_BYTES)
        return await self.get_response_async(request)


def over_limit(request: HttpRequest) -> bool:
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    too_much = getattr(request, "scope", {}).get(TOO_LARGE)
    return declared > settings.COMPANION_MAX_REQUEST_BYTES or bool(too_much)


def too_large(request: HttpRequest, limit: int) -> HttpResponse:
    megabytes = limit // (1024 * 1024)
    if request.path == reverse("campaigns:import") and request.user.is_authenticated:
        from campaigns.forms import ImportForm

        form = ImportForm(data={}, files=MultiValueDict())
        form.is_valid()
        form.errors["file"] = form.error_class(
            [_("The file is larger than a campaign can be (5 MB).")]
        )
        return render(request, "import.html", {"form": form}, status=413)
    return render(request, "413.html", {"megabytes": megabytes}, status=413)
