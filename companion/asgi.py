"""The ASGI application: Django's handler, with request bodies capped (companion/limits.py) and
the live refresh and the changes to a campaign each answered in one thread.

Under ASGI every middleware that is a `MiddlewareMixin` (sessions, CSRF, auth, locale, gzip…)
hands each request and each response to a thread and back to the event loop, about twenty hops
a request, and each request gets a new thread of its own. That is how the streams and static
files stay off threads, but for the requests a table makes most it costs more than their work:

- a phone that cannot take the page from its stream asks for it (live.js's refresh,
  `X-Live-Refresh`), drawn once for all the phones that show the same
  (campaigns/views/shared.py);
- when many phones tap one campaign at once, each change waits its turn for the campaign's row
  anyway: more threads than turns only add switching, and throughput fell as writers were added
  (tests/bench/bench_live.py, "writers").

So these go through the same middleware built synchronously, as under WSGI, in one of a few
threads kept for them: one hop, and the others wait their turn on the event loop, which costs
nothing. Every other request is handled as Django does.
"""

import os
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.db import close_old_connections
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve

from companion.limits import cap_request_bodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from campaigns.views.shared import LIVE_THREADS, is_live_refresh  # noqa: E402

# Changes to a campaign (a command, undo, redo): four at a time, the others queued in order.
CHANGE_THREADS = ThreadPoolExecutor(4, thread_name_prefix="change")
CHANGES = {"act", "undo", "redo"}  # campaigns/urls.py's names


def kept_threads(request: HttpRequest) -> ThreadPoolExecutor | None:
    """The threads kept for this kind of request, if it is one answered in one thread."""
    if is_live_refresh(request):
        return LIVE_THREADS
    if request.method == "POST":
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        if match.namespace == "campaigns" and match.url_name in CHANGES:
            return CHANGE_THREADS
    return None


class Handler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.in_thread = BaseHandler()
        self.in_thread.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        executor = kept_threads(request)
        if executor is None:
            return await super().get_response_async(request)
        return await sync_to_async(self.in_one_thread, thread_sensitive=False, executor=executor)(
            request
        )

    def in_one_thread(self, request: HttpRequest) -> HttpResponseBase:
        try:
            return self.in_thread.get_response(request)
        finally:
            # This thread serves other requests next: its connections go back to their pool
            # now (Django closes them at the request's end, from another thread).
            close_old_connections()


application = cap_request_bodies(Handler())
