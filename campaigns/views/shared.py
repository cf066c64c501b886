"""The live refresh, drawn once for every phone that shows the same thing.

A change reaches every phone on the campaign at once, and each one needs the page it shows
again: its stream sends it (campaigns/views/live.py), or the phone asks for it (live.js's
refresh, `X-Live-Refresh`). With 200 phones that was 200 renders of the same page; now the first
draws it and the others wait for that drawing and get a copy.

Two answers are shared only when nothing they show can differ. The key holds everything a
campaign page's content reads of who asks and how: the campaign, its version (read by this
request) and when its row was last saved; the page and its query string; the language, the time
zone and its date (times, a form's default date); and the member's role. The templates read
nothing else of the member: `can_change`, `is_owner`, undo and redo follow from the role and
the version (tests/test_shared_refresh.py holds every page of every game to that). The members
page shows who is in the campaign and the address the phone used, which no version counts: it
is never shared.

The shared page holds no CSRF token: its forms' hidden token is drawn empty, so its bytes are
the same for every phone (one encoded message for every stream of a key, campaigns/live_push.py).
The phone's token is in its full page once (base.html's `<meta name="csrf-token">`), and swap.js
and offline.js send it in the header Django reads when a form's field is empty
(settings.CSRF_HEADER_NAME). The answer is marked private and not to be stored, like the page it
is part of.
"""

from __future__ import annotations

import datetime
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers

from campaigns.models import Campaign, Membership
from campaigns.views.access import Request
from companion.lanes import Lanes

# Pages whose content depends on more than the key: the member list and the invitation's
# address (the host the phone used) change with no new version.
UNSHARED = {"members"}

# How many answers a process keeps, and how many characters in all (the largest pages are
# about 100 KB); an answer is kept only while its version is the campaign's newest.
SIZE = 256
CHARACTERS = 32_000_000
# Live refreshes, and the pages streams push (campaigns/views/live.py), are drawn on a few
# threads kept for them: a burst of 200 goes through four threads, not 200 of their own. One
# campaign's drawings take one of them at a time, and the campaigns take turns
# (companion/lanes.py): a campaign's drawings of one version are mostly copies of the first, a
# second thread would only wait for it, and a table asking for many different drawings (40
# streams on 40 addresses) keeps to one thread's share.
# A drawing not done within the database's wait is answered "try again" (a live refresh) or
# sent as the version only (a push); companion/lanes.py.
LIVE_LANES = Lanes(4, per_lane=1, name="live", wait=settings.DATABASE_WAIT)

# A phone waits this long for another's drawing before it draws the page itself: as long as a
# drawing may take before it is given up on.
WAIT = settings.DATABASE_WAIT

# The distinct drawings a stream's push may start for one campaign version (a table's phones
# show a few pages, in a few languages and roles). Beyond them the stream sends the version
# only, and the phone asks for its page as any request does: a campaign's phones, or forged
# addresses, cannot keep the drawing threads to themselves through their streams.
PUSHED_DRAWINGS = 8
# In a push's request (campaigns/views/live.py): a key no client can send (a header's name
# starts with HTTP_).
PUSH = "companion.push"


def is_live_refresh(request: HttpRequest) -> bool:
    return (
        request.method == "GET"
        and request.headers.get("HX-Request") == "true"
        and request.headers.get("X-Live-Refresh") == "true"
    )


def key_of(request: Request, row: Row, page: str) -> tuple:
    pk, version, updated, role, _game = row
    return (
        pk,
        version,
        # Any save of the row (a new invitation link, say) makes a new key too; and a campaign
        # made again with the same id and version (a test's rolled-back database) is another.
        updated,
        page,
        request.META.get("QUERY_STRING", ""),
        translation.get_language(),
        timezone.get_current_timezone_name(),
        timezone.localdate(),
        role,
    )


# What the key reads of the campaign and the membership: pk, version, updated, role, game.
Row = tuple[int, int, datetime.datetime, str, str]


def row_of(campaign: Campaign, membership: Membership) -> Row:
    return (campaign.pk, campaign.version, campaign.updated, membership.role, campaign.game)


def light_row(request: Request, pk: int) -> Row:
    """The key's part of the campaign and the membership, in one light query; 404 for anyone
    who is not a member (as `member_campaign`)."""
    if not request.user.is_authenticated:
        raise Http404
    try:
        return (
            pk,
            *Membership.objects.values_list(
                "campaign__version", "campaign__updated", "role", "campaign__game"
            ).get(campaign_id=pk, user=request.user),
        )
    except Membership.DoesNotExist:
        raise Http404 from None


@dataclass
class Drawing:
    """One answer: drawn by the first phone that asked, the others wait for `done`."""

    done: threading.Event = field(default_factory=threading.Event)
    body: str | None = None  # None until drawn, and for good when the drawing failed


class Answers:
    """The answers this process keeps, newest use last; bounded by count and size."""

    def __init__(self, size: int = SIZE, characters: int = CHARACTERS) -> None:
        self.size = size
        self.characters = characters
        self.lock = threading.Lock()
        self.kept: OrderedDict[tuple, Drawing] = OrderedDict()
        self.newest: dict[int, int] = {}  # campaign pk -> its newest version seen
        self.held = 0  # characters in `kept`
        self.drawings: Counter[int] = Counter()  # campaign pk -> its keys in `kept`

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()
            self.newest.clear()
            self.drawings.clear()
            self.held = 0

    def found(self, key: tuple) -> str | None:
        """The body kept for `key`, waiting for it while another phone draws it; None when
        there is none."""
        with self.lock:
            drawing = self.kept.get(key)
            if drawing is None:
                return None
            self.kept.move_to_end(key)
        drawing.done.wait(WAIT)
        return drawing.body

    def answer(self, key: tuple, draw: Callable[[], str], bounded: bool = False) -> str | None:
        """The body for `key`: drawn here, or by the phone already drawing it. `bounded` (a
        stream's push): None instead of a drawing beyond the campaign version's few."""
        pk, version = key[0], key[1]
        with self.lock:
            newest = self.newest.get(pk, -1)
            if version < newest:
                if bounded:
                    return None  # (the phone hears of the newer version)
                drawing = None  # an older version than another phone read: not kept
            else:
                if version > newest:
                    self.forget(pk)
                    self.newest[pk] = version
                drawing = self.kept.get(key)
                if drawing is not None:
                    self.kept.move_to_end(key)
                    mine = False
                elif bounded and self.drawings[pk] >= PUSHED_DRAWINGS:
                    return None
                else:
                    drawing = self.kept[key] = Drawing()
                    self.drawings[pk] += 1
                    mine = True
        if drawing is None:
            return draw()
        if not mine:
            if drawing.done.wait(WAIT) and drawing.body is not None:
                return drawing.body
            return draw()  # the drawing failed or is stuck: this phone draws its own
        try:
            body = draw()
        except BaseException:
            with self.lock:
                if self.kept.get(key) is drawing:
                    self.drop(key)
            drawing.done.set()
            raise
        with self.lock:
            drawing.body = body
            if self.kept.get(key) is drawing:
                self.held += len(body)
                self.trim()
        drawing.done.set()
        return body

    def forget(self, pk: int) -> None:
        """Drop a campaign's answers (its version moved on)."""
        for key in [key for key in self.kept if key[0] == pk]:
            self.drop(key)

    def drop(self, key: tuple) -> None:
        drawing = self.kept.pop(key)
        self.drawings[key[0]] -= 1
        if self.drawings[key[0]] <= 0:
            del self.drawings[key[0]]
        if drawing.body is not None:
            self.held -= len(drawing.body)

    def trim(self) -> None:
        while self.kept and (len(self.kept) > self.size or self.held > self.characters):
            self.drop(next(iter(self.kept)))
        live = {key[0] for key in self.kept}
        for pk in [pk for pk in self.newest if pk not in live]:
            del self.newest[pk]


ANSWERS = Answers()


def shared_answer(
    request: Request,
    campaign: Campaign,
    membership: Membership,
    page: str,
    draw: Callable[..., HttpResponse],
) -> HttpResponse:
    """The live refresh's answer: `draw(csrf_token="")` renders the page with its forms'
    hidden token empty; its body is shared, byte for byte, with every phone whose answer has the
    same key."""
    if page in UNSHARED:
        return private(draw())

    def drawn() -> str:
        return draw(csrf_token="").content.decode()

    key = key_of(request, row_of(campaign, membership), page)
    body = ANSWERS.answer(key, drawn, bounded=request.META.get(PUSH) is True)
    if body is None:
        return private(HttpResponse(status=204))  # not drawn: the stream sends the version
    return private(HttpResponse(body))


def already_drawn(request: Request, pk: int, page: str) -> HttpResponse | None:
    """The live refresh's answer when another phone drew it (or is drawing it), found with a
    light query: the campaign and the membership, whole, are read only to draw a page."""
    if page in UNSHARED or not is_live_refresh(request):
        return None
    row = light_row(request, pk)
    # (A page the campaign does not have is never drawn, so never found: the view says 404.)
    body = ANSWERS.found(key_of(request, row, page))
    if body is None:
        return None
    response = private(HttpResponse(body))
    response["X-Campaign-Version"] = str(row[1])
    return response


def private(response: HttpResponse) -> HttpResponse:
    """A live refresh answer: one phone's, never stored, and not the page at the same URL."""
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ("HX-Request", "X-Live-Refresh"))
    return response
