"""What `manage.py check --deploy` says of a hosted site's settings, beyond Django's own checks
(the README's hosting section runs it): a host name the site answers to, and a secret key no
one else knows."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning


@register(Tags.security, deploy=True)
def any_host_behind_https(
    app_configs: Sequence[AppConfig] | None, **kwargs: object
) -> list[CheckMessage]:
    """`*` serves a laptop on the table's network, whatever address the phones use. A hosted
    site knows its names: answering any Host header lets a forged one name another site in the
    links it makes (an invitation's address and QR code)."""
    if settings.COMPANION_HTTPS and "*" in settings.ALLOWED_HOSTS:
        return [
            CheckWarning(
                "ALLOWED_HOSTS is '*' on a site behind HTTPS (COMPANION_HTTPS): it answers "
                "requests for any host name.",
                hint="Set ALLOWED_HOSTS to the site's names, e.g. "
                "ALLOWED_HOSTS=companion.example.org.",
                id="companion.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def published_secret_key(
    app_configs: Sequence[AppConfig] | None, **kwargs: object
) -> list[CheckMessage]:
    """The key once committed to this repository is refused from `.secret_key` (settings), but
    DJANGO_SECRET_KEY is taken as given: anyone could forge what the site signs with it."""
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    if any(
        hashlib.sha256(str(key).encode()).hexdigest() in settings.PUBLISHED_KEYS for key in keys
    ):
        return [
            CheckWarning(
                "The secret key (DJANGO_SECRET_KEY or SECRET_KEY_FALLBACKS) is one that was "
                "published in Companion's repository: anyone can forge what the site signs.",
                hint="Make a new one: python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(50))'.",
                id="companion.W002",
            )
        ]
    return []
