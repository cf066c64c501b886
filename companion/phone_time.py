"""Times in the phone's own time zone: `live.js` keeps the phone's zone (its IANA name) in the
`tz` cookie, and this middleware makes it the current time zone for the request, so history,
results and their default dates read as the phone's clock does. A cookie naming no known zone
is ignored (the site's `TIME_ZONE` stays)."""

from __future__ import annotations

import functools
import zoneinfo

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils import timezone

COOKIE = "tz"


@functools.cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    if not name or len(name) > 64 or name not in known_zones():
        return None
    return zoneinfo.ZoneInfo(name)


class PhoneTimeZoneMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        with self.zone(request):
            return self.get_response(request)

    async def __acall__(self, request):
        with self.zone(request):
            return await self.get_response(request)

    @staticmethod
    def zone(request):
        zone = zone_of(request.COOKIES.get(COOKIE))
        return timezone.override(zone) if zone is not None else timezone.override(None)
