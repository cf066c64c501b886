"""What static/js/offline.js needs to know of the server's settings, for base.html."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def taps_per_second() -> str:
    """The changes one member may send to one campaign a second (COMPANION_TAPS_PER_SECOND; 0:
    no limit): the taps that waited on the phone are sent no faster, so none is refused as "too
    many taps"."""
    return f"{max(float(settings.COMPANION_TAPS_PER_SECOND), 0):g}"
