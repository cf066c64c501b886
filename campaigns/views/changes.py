"""Changes to a campaign: every game command through `act`, undo and redo, members, deletion.

A change made with htmx is answered with the regions it changed (`render.render_change`); one
made without JavaScript is redirected back to its page (or, refused, answered with the page and
the message in place)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_stubs_ext import StrOrPromise

from campaigns import bidi
from campaigns.changes import CHANGE_ID, NotAllowed
from campaigns.commands import CommandError
from campaigns.forms import DeleteForm, MemberForm, RoleForm
from campaigns.games import GAMES
from campaigns.models import Campaign, Membership, Stale, display_name
from campaigns.views.access import Request, member_campaign, owner_campaign
from campaigns.views.render import (
    REGION,
    SITE_PAGES,
    UNDO_BAR,
    Refusal,
    known_page,
    page_path,
    page_url,
    render_change,
    render_page,
)


def login_then_back(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`login_required` for a change: after logging in, the phone comes back to the page the form
    was on (its hidden `page`), not to the change's own address, which only takes a POST (a
    session that ended mid-game otherwise ended on a blank 405 after logging in).

    A change's address opened as a page (a reload or a restored tab after a form refused
    without JavaScript, which leaves the browser at the address it posted to) is the campaign's
    table, not a blank 405; the table itself answers who may see it."""

    @wraps(view)
    def wrapped(request: Request, pk: int, *args: object, **kwargs: object) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            return redirect(page_path(pk, ""))
        if request.user.is_authenticated:
            return view(request, pk, *args, **kwargs)
        page = request.POST.get("page", "")
        if page not in SITE_PAGES and not any(page in game.pages for game in GAMES.values()):
            page = ""
        return redirect_to_login(page_path(pk, page))

    return wrapped


def posted_region(request: Request) -> str:
    region = request.POST.get("region", "")
    return region if REGION.match(region) else ""


def seen_version(request: Request) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def posted_change(request: Request) -> str | None:
    """The id the phone gave this change (live.js sends one with every change it posts), so a
    change sent again after its answer was lost is applied once."""
    change = request.POST.get("change", "")
    return change if CHANGE_ID.match(change) else None


def form_message(form: Form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            parts.append(f"{label}: {error}" if label else str(error))
    return " ".join(parts)


@login_then_back
@require_POST
def act(request: Request, pk: int, action: str) -> HttpResponse:
    """Every change a game offers comes through here: validate, apply as one event, redraw."""
    campaign, membership = member_campaign(request, pk, change=True)
    command = campaign.game_module.commands.get(action)
    if command is None:
        raise Http404
    if membership.role not in command.roles:
        raise PermissionDenied(_("Only the owner can do that."))
    form = command.form(request.POST, auto_id=False)
    message, status, field, payload = None, 200, None, None
    if form.is_valid():
        try:
            event = campaign.apply(
                action,
                form.cleaned_data,
                request.user,
                seen_version(request),
                change=posted_change(request),
            )
            # A double tap answers with the first tap's change, which may be another button's
            # (the second tap met "Draw another" where "Draw" was).
            payload = event.data
            command = campaign.game_module.commands.get(event.action, command)
        except Stale as stale:
            message, status = stale.message, 409
        except CommandError as refused:
            message, status, field = refused.message, 422, refused.field
            form.add_error(field if field in form.fields else None, message)
    else:
        message, status = form_message(form), 422
        field = next(iter(form.errors), None)
    page = known_page(campaign, request.POST.get("page", ""))
    region = posted_region(request)
    refusal = None
    if message is not None:
        refusal = Refusal(region, message, request.POST, field, action, form)
    elif not request.htmx:
        return redirect(page_url(campaign, page) + (f"#{region}" if region else ""))
    if not request.htmx:
        return render_page(request, campaign, membership, page, status, refusal)
    regions = command.regions_for(payload, campaign.state if payload is not None else None)
    return render_change(request, campaign, membership, page, region, regions, status, refusal)


@login_then_back
@require_POST
def undo(request: Request, pk: int) -> HttpResponse:
    return undo_or_redo(request, pk, "undo")


@login_then_back
@require_POST
def redo(request: Request, pk: int) -> HttpResponse:
    return undo_or_redo(request, pk, "redo")


def undo_or_redo(request: Request, pk: int, which: str) -> HttpResponse:
    campaign, membership = member_campaign(request, pk, change=True)
    try:
        event_id = int(request.POST.get("event", ""))
    except ValueError:
        event_id = None
    message, status = None, 200
    try:
        getattr(campaign, which)(
            request.user, event_id, change=posted_change(request), role=membership.role
        )
    except Stale as stale:
        message, status = stale.message, 409
    except NotAllowed as refused:
        message, status = refused.message, 403
    except CommandError as refused:
        message, status = refused.message, 422
    page = known_page(campaign, request.POST.get("back", ""))
    if message is None:
        if not request.htmx:
            return redirect(page_url(campaign, page))
        # Undoing can change anything on the page: it comes back whole.
        return render_page(request, campaign, membership, page)
    refusal = Refusal(UNDO_BAR, message)
    if not request.htmx:
        return render_page(request, campaign, membership, page, status, refusal)
    return render_change(request, campaign, membership, page, UNDO_BAR, (), status, refusal)


# Members and invitations (the owner's forms on the members page; no htmx)


def refused_on_members(
    request: Request, campaign: Campaign, membership: Membership, message: str
) -> HttpResponse:
    refusal = Refusal("member-list", message)
    return render_page(request, campaign, membership, "members", 422, refusal)


@login_then_back
@require_POST
def rotate_invite(request: Request, pk: int) -> HttpResponse:
    campaign, _membership = owner_campaign(request, pk)
    campaign.rotate_invite()
    messages.success(request, _("A new invitation link is ready; the old one no longer works."))
    return redirect("campaigns:members", pk=campaign.pk)


MemberChange = Callable[[Request, Campaign, Membership, Membership, Form], HttpResponse]


def on_other_member(
    form_class: type[MemberForm | RoleForm], cannot: StrOrPromise
) -> Callable[[MemberChange], Callable[..., HttpResponse]]:
    """An owner's change to another member (not the owner) that a members form names: the
    change runs with that member, or the members page says why not (`cannot` when the form does
    not say)."""

    def decorate(change: MemberChange) -> Callable[..., HttpResponse]:
        @login_then_back
        @require_POST
        @wraps(change)
        def view(request: Request, pk: int) -> HttpResponse:
            campaign, membership = owner_campaign(request, pk)
            form = form_class(request.POST)
            target = None
            if form.is_valid():
                target = campaign.memberships.filter(pk=form.cleaned_data["member"]).first()
            if target is None or target.is_owner:
                message = form_message(form) or str(cannot)
                return refused_on_members(request, campaign, membership, message)
            return change(request, campaign, membership, target, form)

        return view

    return decorate


@on_other_member(MemberForm, gettext_lazy("That member cannot be removed."))
def remove_member(
    request: Request, campaign: Campaign, membership: Membership, target: Membership, form: Form
) -> HttpResponse:
    # The members page asks first ("Remove Dana from the campaign?"); its answer says yes.
    if request.POST.get("confirm") != "yes":
        message = _("Confirm the removal first.")
        return refused_on_members(request, campaign, membership, message)
    target.delete()
    messages.success(
        request,
        _("Removed %(name)s. The invitation still works for them: make a new link to stop that.")
        % {"name": bidi.isolate(display_name(target.user))},
    )
    return redirect("campaigns:members", pk=campaign.pk)


@on_other_member(RoleForm, gettext_lazy("That member's role cannot be changed."))
def set_role(
    request: Request, campaign: Campaign, membership: Membership, target: Membership, form: Form
) -> HttpResponse:
    target.role = form.cleaned_data["role"]
    target.save(update_fields=["role"])
    return redirect("campaigns:members", pk=campaign.pk)


@login_then_back
@require_POST
def delete_campaign(request: Request, pk: int) -> HttpResponse:
    campaign, membership = owner_campaign(request, pk)
    form = DeleteForm(request.POST, campaign_name=campaign.name, auto_id="delete-%s")
    if not form.is_valid():
        return render_page(request, campaign, membership, "settings", 422, delete_form=form)
    name = campaign.name
    campaign.delete()
    messages.success(request, _("Deleted “%(name)s”.") % {"name": bidi.isolate(name)})
    return redirect("campaigns:home")
