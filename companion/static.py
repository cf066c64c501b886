"""WhiteNoise in front of the app without making the whole middleware chain synchronous.

WhiteNoiseMiddleware is sync-only; in the chain it would push every request, the live streams
included, through a thread. This wrapper hands WhiteNoise only the requests for static files.
"""

from collections.abc import AsyncIterator, Iterable
from functools import cached_property

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware

from companion.middleware import SyncAndAsyncMiddleware


async def read_in_thread(chunks: Iterable[bytes]) -> AsyncIterator[bytes]:
    iterator = iter(chunks)

    def next_chunk() -> bytes | None:
        return next(iterator, None)

    read = sync_to_async(next_chunk, thread_sensitive=False)
    while (chunk := await read()) is not None:
        yield chunk


class StaticFilesMiddleware(SyncAndAsyncMiddleware):
    def __init__(self, get_response):
        super().__init__(get_response)
        self.prefix = "/" + settings.STATIC_URL.lstrip("/")

    @cached_property
    def whitenoise(self) -> WhiteNoiseMiddleware:
        """Made at the first request for a static file, not with the chain: WhiteNoise reads the
        whole static folder when it is made (about 7 ms), and every test client builds a chain
        of its own that, but for a few, never asks for a static file."""
        return WhiteNoiseMiddleware(self.get_response)

    def sync_call(self, request: HttpRequest):
        if request.path_info.startswith(self.prefix):
            return self.whitenoise(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info.startswith(self.prefix):
            static_file = await sync_to_async(self.find)(request.path_info)
            if static_file is not None:
                response = await sync_to_async(self.whitenoise.serve)(static_file, request)
                if response.streaming and not response.is_async:
                    # Django's ASGI handler would read a file's chunks on the event loop (and
                    # warns that it must); they are read in a thread instead.
                    response.streaming_content = read_in_thread(response.streaming_content)
                return response
        return await self.get_response_async(request)

    def find(self, path: str):
        if self.whitenoise.autorefresh:
            return self.whitenoise.find_file(path)
        return self.whitenoise.files.get(path)
