"""Which pages a phone may keep to show without the connection (static/sw.js keeps them)."""

from __future__ import annotations

from django.http import HttpResponse

from campaigns.views.access import Request


def kept(request: Request, response: HttpResponse) -> HttpResponse:
    """Mark a page the phone may keep: this member's home page, a campaign's table, game pages
    and history, whole and as the server drew them for this member now. The members and
    settings pages are never marked (who is in the campaign, the invitation), nor an answer to
    a change or a live refresh (a part of a page). The mark names the member, so a phone where
    someone else logs in keeps nothing of the first."""
    if response.status_code == 200 and not request.htmx and request.user.is_authenticated:
        response["X-Companion-Keep"] = str(request.user.pk)
    return response
