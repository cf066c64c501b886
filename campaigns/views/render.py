"""One way to draw a campaign page, and the answer to a change.

Every campaign page (the table, a game's own pages, history, members, settings) is drawn by
`render_page`: the campaign's context, the page's own, and its template (for htmx without the
site around it: `content_only`). The answer to a change made with htmx (`render_change`) draws
only the live regions that changed (`{% region %}` in the templates): the form's own region as the
answer, the undo bar and the regions the command names as out-of-band swaps. A refusal goes to
its region with htmx's response headers; when its region is gone (removed on another phone),
to the undo bar, which every page has.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import segno
from django.conf import settings
from django.core.paginator import Paginator
from django.forms import Form
from django.http import HttpResponse, QueryDict
from django.http.request import split_domain_port
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django_htmx.http import reselect, reswap, retarget

from campaigns.changes import may_make
from campaigns.forms import DeleteForm
from campaigns.games.base import Viewing
from campaigns.models import Campaign, Event, Membership, display_name
from campaigns.templatetags.regions import COLLECT, Regions
from campaigns.views.access import Request
from campaigns.views.display import display_url
from campaigns.views.offline import keep_as, kept
from campaigns.views.shared import is_live_refresh, shared_answer

REGION = re.compile(r"^[a-z0-9-]{1,40}$")
UNDO_BAR = "undo-bar"


@dataclass
class Refusal:
    """A refused change, for the page that shows it: the message goes to `region`; the form of
    the refused `action` comes back bound to what was posted (`{% command_form %}`), so the
    typed value stays and each field shows its own error."""

    region: str
    message: str
    data: QueryDict | None = None
    # The field the refusal is about (a form field's name), for a message next to it.
    field: str | None = None
    action: str = ""
    form: Form | None = None
    # Set when its region is drawn (`{% region %}`); the undo bar, drawn after every region,
    # shows a refusal whose region the page no longer has, so no message is ever lost.
    shown: bool = False

    @property
    def on_field(self) -> bool:
        """Whether every error sits on a field the form shows (then no message at the top)."""
        form = self.form
        if form is None or not form.errors:
            return False
        return all(
            name in form.fields and not form.fields[name].widget.is_hidden for name in form.errors
        )


# The site's own campaign pages; a game's pages come from its `pages`.


def history_context(
    request: Request, campaign: Campaign, membership: Membership
) -> dict[str, object]:
    events = campaign.events.select_related("actor").order_by("-seq")
    paginator = Paginator(events, 30, allow_empty_first_page=True)
    # The count comes from the version, not a COUNT(*): one event per version.
    paginator.count = campaign.version
    events_page = paginator.get_page(request.GET.get("page"))
    game = campaign.game_module
    rows = [
        {
            "event": event,
            "text": event.describe(game),
            "who": display_name(event.actor, event.actor_name),
            "undone_kind": event.kind != Event.Kind.DO,
        }
        for event in events_page.object_list
    ]
    return {"events_page": events_page, "rows": rows}


def members_context(
    request: Request, campaign: Campaign, membership: Membership
) -> dict[str, object]:
    context: dict[str, object] = {"members": campaign.memberships.select_related("user")}
    # The table display's own link and QR code, for any member to open on a tablet, when the
    # display has something to show for this campaign.
    if campaign.game_module.displays(campaign.state):
        display = invitation_url(request, display_url(campaign))
        context["display_url"] = display
        context["display_qr"] = qr_code(display, inline=False)
    if membership.is_owner:
        invite_url = invitation_url(request, reverse("accounts:join", args=[campaign.invite_token]))
        context["invite_url"] = invite_url
        context["invite_qr"] = qr_code(invite_url, inline=True)
    return context


# A QR code is the same picture for the same address: drawing one took about 10 ms, half of the
# members page, on every visit (the addresses change only when the owner renews the invitation).
@functools.lru_cache(maxsize=512)
def qr_code(url: str, *, inline: bool) -> str:
    """`url` as a QR code: an `<svg>` element (`inline`), else an SVG `data:` address."""
    code = segno.make(url, error="m")
    if inline:
        return code.svg_inline(dark="#111", light="#fff", border=2, omitsize=True)
    return code.svg_data_uri(dark="#111", light="#fff", border=2)


LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}


def invitation_url(request: Request, path: str) -> str:
    """The full address of `path` for another phone: the server's LAN address (`make run`'s)
    when the owner browses at a loopback address, which no other phone can open."""
    name, port = split_domain_port(request.get_host())
    lan = settings.COMPANION_LAN_ADDRESS
    if lan and name in LOOPBACK:
        return f"{request.scheme}://{lan}:{port or request.get_port()}{path}"
    return request.build_absolute_uri(path)


def settings_context(
    request: Request, campaign: Campaign, membership: Membership
) -> dict[str, object]:
    return {"delete_form": DeleteForm(campaign_name=campaign.name, auto_id="delete-%s")}


PageContext = Callable[[Request, Campaign, Membership], dict[str, object]]
SITE_PAGES: dict[str, tuple[str, PageContext]] = {
    "history": ("history.html", history_context),
    "members": ("members.html", members_context),
    "settings": ("settings.html", settings_context),
}


def known_page(campaign: Campaign, page: str) -> str:
    """The page a form names (its hidden `page`), if the campaign has it; else the table."""
    return page if page in SITE_PAGES or page in campaign.game_module.pages else ""


def page_url(campaign: Campaign, page: str) -> str:
    return page_path(campaign.pk, page)


def page_path(pk: int, page: str) -> str:
    """The address of a campaign's page (`page` one it has, or "" for its table)."""
    if page in SITE_PAGES:
        return reverse(f"campaigns:{page}", args=[pk])
    if page:
        return reverse("campaigns:game-page", args=[pk, page])
    return reverse("campaigns:campaign", args=[pk])


def page_context(
    request: Request,
    campaign: Campaign,
    membership: Membership,
    page: str = "",
    refusal: Refusal | None = None,
    **extra: object,
) -> dict[str, object]:
    game = campaign.game_module
    state = campaign.state
    redo_event = campaign.redo_top.target if campaign.redo_top else None
    context = {
        "tab": page or "table",
        "page": page,
        "undo_text": campaign.undo_top.describe(game) if campaign.undo_top else "",
        "undo_who": undo_who(campaign.undo_top),
        "redo_text": redo_event.describe(game) if redo_event else "",
        "campaign": campaign,
        "membership": membership,
        "game": game,
        "state": state,
        "undo_event": campaign.undo_top,
        "redo_event": redo_event,
        "redo_marker": campaign.redo_top,
        # Undoing or redoing a change needs the role its command needs.
        "may_undo": may_make(game, campaign.undo_top, membership),
        "may_redo": may_make(game, redo_event, membership),
        "error": refusal,
        **game.context(campaign, state, viewing(request, page)),
    }
    if page in SITE_PAGES:
        context.update(SITE_PAGES[page][1](request, campaign, membership))
    context.update(extra)
    return context


def undo_who(event: Event | None) -> str:
    """Who made the change the undo bar would take back (an undo or redo names who did that)."""
    return display_name(event.actor, event.actor_name) if event is not None else ""


def viewing(request: Request, page: str) -> Viewing:
    """What a game's context may know of the request, read here: games never read requests."""
    match = request.resolver_match
    acted = match.kwargs.get("action", "") if match and request.method == "POST" else ""
    return Viewing(
        page=page,
        acted=acted,
        acted_in=request.POST.get("region", "") if acted else "",
        live=request.headers.get("X-Live-Refresh") == "true",
        query=request.GET,
        posted=request.POST if acted else {},
    )


def template_for(campaign: Campaign, page: str) -> str:
    return SITE_PAGES[page][0] if page in SITE_PAGES else campaign.game_module.template_for(page)


def versioned(response: HttpResponse, campaign: Campaign) -> HttpResponse:
    response["X-Campaign-Version"] = str(campaign.version)
    return response


def render_page(
    request: Request,
    campaign: Campaign,
    membership: Membership,
    page: str = "",
    status: int = 200,
    refusal: Refusal | None = None,
    keep: bool = False,
    **extra: object,
) -> HttpResponse:
    """A campaign page, whole (or only its content, for htmx and the live refresh). The live
    refresh's answer is drawn once for all the phones that show the same (`shared`). With
    `keep`, the phone may keep the page to show offline (campaigns/views/offline.py)."""
    template = template_for(campaign, page)
    keep_for = keep_as(request, status) if keep else ""

    def draw(**more: object) -> HttpResponse:
        context = page_context(request, campaign, membership, page, refusal, **extra, **more)
        context["content_only"] = bool(request.htmx)
        context["keep_as"] = keep_for
        return render(request, template, context, status=status)

    if is_live_refresh(request) and status == 200 and refusal is None and not extra:
        return versioned(shared_answer(request, campaign, membership, page, draw), campaign)
    return kept(versioned(draw(), campaign), keep_for)


OOB = re.compile(r"^(\s*<[a-zA-Z][\w-]*)")


def render_regions(
    request: Request, campaign: Campaign, page: str, context: dict[str, object], wanted: set[str]
) -> Regions:
    regions = Regions(wanted)
    context[COLLECT] = regions
    context["content_only"] = True
    context["drawing_regions"] = True  # what is outside every region need not be drawn
    get_template(template_for(campaign, page)).render(context, request)
    return regions


def render_change(
    request: Request,
    campaign: Campaign,
    membership: Membership,
    page: str,
    region: str,
    also: Iterable[str] = (),
    status: int = 200,
    refusal: Refusal | None = None,
) -> HttpResponse:
    """The answer to a change made with htmx: `region` (the form's) as the answer, the undo bar
    and the regions in `also` out of band, each drawn once, nothing else of the page; a region
    the page no longer has (its tracker was removed) is deleted, or, for a refusal, the undo bar
    (which shows the message) is the answer."""
    context = page_context(request, campaign, membership, page, refusal)
    wanted = {region, UNDO_BAR, *also} - {""}
    regions = render_regions(request, campaign, page, context, wanted)
    if refusal is not None and not refusal.shown:
        # The form's region is gone: the undo bar showed the message, and is the answer.
        region = UNDO_BAR
    main = regions.found.pop(region, None)
    parts = [OOB.sub(r'\1 hx-swap-oob="true"', html, count=1) for html in regions.found.values()]
    response = versioned(HttpResponse((main or "") + "".join(parts), status=status), campaign)
    target = f"#{region}" if REGION.match(region) else ""
    if main is not None:
        reselect(retarget(reswap(response, "outerHTML"), target), target)
    elif region not in regions.seen and target:
        # Gone after the change (its tracker removed): it leaves this page too.
        retarget(reswap(response, "delete"), target)
    else:
        # Drawn inside a larger region that is itself out of band.
        reswap(response, "none")
    return response
