"""A sliding limit on login, sign-up, join and password attempts, per client address.

The counts live in the database (`RateCount`), so every server process behind a proxy counts
against one limit. The address is the connection's own (REMOTE_ADDR): a client can write any
X-Forwarded-For it likes, so that header is read only when COMPANION_TRUST_PROXY says a proxy in
front of the site appends the address it saw (the last entry, the one the client cannot forge).
"""

import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.models import RateCount


def client_address(request: HttpRequest) -> str:
    if settings.COMPANION_TRUST_PROXY:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if hops[-1]:
            return hops[-1][:60]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def count_attempt(key: str, window: int) -> int:
    """Add one attempt to the key's count in this window and return the count of this window
    and the one before: attempts just either side of a minute's turn still count together."""
    with transaction.atomic():
        counts = RateCount.objects.filter(key=key, window=window)
        if not counts.update(count=F("count") + 1):
            try:
                with transaction.atomic():
                    RateCount.objects.create(key=key, window=window, count=1)
            except IntegrityError:  # another process made it meanwhile
                counts.update(count=F("count") + 1)
            else:
                RateCount.objects.filter(window__lt=window - 1).delete()
        recent = RateCount.objects.filter(key=key, window__in=(window - 1, window))
        return sum(recent.values_list("count", flat=True))


def rate_limited(scope: str) -> Callable:
    """Refuse POSTs past COMPANION_RATE_LIMIT a minute from one address with a 429 page.

    The account page counts per account as well: a stolen session guessing the current
    password from many addresses still meets the limit."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST":
                window = int(time.time() // 60)
                keys = [f"{scope}:{client_address(request)}"]
                user = getattr(request, "user", None)
                if scope == "account" and user is not None and user.is_authenticated:
                    keys.append(f"{scope}:user:{user.pk}")
                counts = [count_attempt(key, window) for key in keys]
                if max(counts) > settings.COMPANION_RATE_LIMIT:
                    return render(request, "too-many.html", status=429)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
