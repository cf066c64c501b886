"""Times in the phone's own time zone: `live.js` keeps the phone's zone (its IANA name) in the
`tz` cookie, and this middleware makes it the current time zone for the request, so history,
results and their default dates read as the phone's clock does. A cookie naming no known zone
is ignored (the site's `TIME_ZONE` stays)."""

from __future__ import annotations

import functools
import zoneinfo

from django.utils import timezone

from companion.middleware import SyncAndAsyncMiddleware

COOKIE = "tz"


@functools.cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    if not name or len(name) > 64 or name not in known_zones():
        return None
    return zoneinfo.ZoneInfo(name)


class PhoneTimeZoneMiddleware(SyncAndAsyncMiddleware):
    def sync_call(self, request):
        with self.zone(request):
            return self.get_response(request)

    async def __acall__(self, request):
        with self.zone(request):
            return await self.get_response_async(request)

    @staticmethod
    def zone(request):
        zone = zone_of(request.COOKIES.get(COOKIE))
        return timezone.override(zone) if zone is not None else timezone.override(None)
