"""Which pages a phone may keep to show without the connection (static/sw.js keeps them)."""

from __future__ import annotations

from django.http import HttpResponse

from campaigns.views.access import Request


def keep_as(request: Request, status: int = 200) -> str:
    """The member a page drawn for this request may be kept for, or "" when it may not be: this
    member's home page, a campaign's table, game pages and history, whole and as the server drew
    them for this member now (the views that draw those ask). The members and settings pages are
    never kept (who is in the campaign, the invitation), nor an answer to a change or a live
    refresh (a part of a page), nor a refusal. The mark names the member, so a phone where
    someone else logs in keeps nothing of the first.

    The page carries the mark twice: in its answer's X-Companion-Keep header, which the service
    worker reads on the pages it fetches, and in the page itself (offline.js's `data-keep`), so
    that the first page a phone shows, which came before its worker, is kept as the phone shows
    it without being asked for and drawn a second time."""
    if status == 200 and not request.htmx and request.user.is_authenticated:
        return str(request.user.pk)
    return ""


def kept(response: HttpResponse, who: str) -> HttpResponse:
    """The answer of a page drawn with `keep_as` = `who`, marked in its header when it may be
    kept (the same mark as the page's own)."""
    if who:
        response["X-Companion-Keep"] = who
    return response
