"""The shape the site's own middleware share: sync and async both, as the chain below is.

A sync-only middleware would make Django run the chain above it in a thread and hop back to the
event loop for the chain below it, on every request. A subclass writes the sync path in
`sync_call` and the async one in `__acall__`; `__call__` picks the one the chain wants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest


class SyncAndAsyncMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return self.sync_call(request)

    def sync_call(self, request: HttpRequest) -> Any:
        raise NotImplementedError

    async def __acall__(self, request: HttpRequest) -> Any:
        raise NotImplementedError
