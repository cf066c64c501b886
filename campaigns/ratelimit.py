"""A small fixed-window limit on login and join attempts, per client address.

The cache is per process; behind several processes each keeps its own window, which still bounds
guessing at a few times the limit.
"""

import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def rate_limited(scope: str) -> Callable:
    """Refuse POSTs past COMPANION_RATE_LIMIT a minute from one address with a 429 page."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST":
                window = int(time.time() // 60)
                key = f"rate:{scope}:{client_address(request)}:{window}"
                cache.add(key, 0, timeout=120)
                try:
                    count = cache.incr(key)
                except ValueError:
                    count = 1
                if count > settings.COMPANION_RATE_LIMIT:
                    return render(request, "too-many.html", status=429)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
