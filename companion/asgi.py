"""The ASGI application: Django's handler, with request bodies capped (companion/limits.py) and
the live refresh answered in one thread.

Under ASGI every middleware that is a `MiddlewareMixin` (sessions, CSRF, auth, locale, gzip…)
hands each request and each response to a thread and back to the event loop, about twenty hops
a request. That is how the streams and static files stay off threads, but when a change reaches
200 phones they all ask for their page at once (live.js's refresh, `X-Live-Refresh`), and those
hops cost more than the answer, which is drawn once for all of them (campaigns/views/shared.py).
So a live refresh goes through the same middleware built synchronously, as under WSGI, in one of
a few threads kept for it: one hop. Every other request is handled as Django does.
"""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.db import close_old_connections
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from companion.limits import cap_request_bodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from campaigns.views.shared import LIVE_THREADS  # noqa: E402


class Handler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.in_thread = BaseHandler()
        self.in_thread.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        if request.method == "GET" and request.headers.get("X-Live-Refresh") == "true":
            return await sync_to_async(
                self.live_refresh, thread_sensitive=False, executor=LIVE_THREADS
            )(request)
        return await super().get_response_async(request)

    def live_refresh(self, request: HttpRequest) -> HttpResponseBase:
        try:
            return self.in_thread.get_response(request)
        finally:
            # This thread serves other requests next: its connections go back to their pool
            # now (Django closes them at the request's end, from another thread).
            close_old_connections()


application = cap_request_bodies(Handler())
