"""The shape the site's own middleware share: sync and async both, as the chain below is.

A sync-only middleware would make Django run the chain above it in a thread and hop back to the
event loop for the chain below it, on every request. A subclass writes the sync path in
`sync_call` and the async one in `__acall__`; `__call__` picks the one the chain wants.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

# What the chain below answers: a response, or (in an async chain) an awaitable of one.
Response = HttpResponseBase | Awaitable[HttpResponseBase]


class SyncAndAsyncMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Response]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Response:
        if self.is_async:
            return self.__acall__(request)
        return self.sync_call(request)

    def sync_call(self, request: HttpRequest) -> Response:
        raise NotImplementedError

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        raise NotImplementedError

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The chain below's response, for `__acall__` (there it is an awaitable)."""
        response = self.get_response(request)
        return response if isinstance(response, HttpResponseBase) else await response
