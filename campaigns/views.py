"""Pages and actions. Every campaign view finds the campaign through the user's membership:
a campaign the user does not belong to does not exist for them (404)."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import get_random_string
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.commands import CommandError
from campaigns.forms import (
    DeleteForm,
    ImportForm,
    JoinForm,
    KeepAccountForm,
    MemberForm,
    NewCampaignForm,
    RoleForm,
    SignupForm,
)
from campaigns.games import GAMES
from campaigns.models import Campaign, Event, Membership, Stale, display_name
from campaigns.ratelimit import rate_limited
from campaigns.transfer import ImportRefused, export_campaign, import_campaign

REGION = re.compile(r"^[a-z0-9-]{1,40}$")


@dataclass
class Refusal:
    """A refused change, for the page that shows it: the message goes to `region`; the form of
    the refused `action` comes back bound to what was posted (`{% command_form %}`), so the
    typed value stays and each field shows its own error."""

    region: str
    message: str
    data: Any = None
    # The field the refusal is about (a form field's name), for a message next to it.
    field: str | None = None
    action: str = ""
    form: Any = None

    @property
    def on_field(self) -> bool:
        """Whether every error sits on a field the form shows (then no message at the top)."""
        form = self.form
        if form is None or not form.errors:
            return False
        return all(
            name in form.fields and not form.fields[name].widget.is_hidden for name in form.errors
        )


def member_campaign(request: HttpRequest, pk: int, change: bool = False):
    """The campaign and the user's membership of it; 404 for anyone who is not a member."""
    membership = (
        Membership.objects.select_related(
            "campaign", "campaign__undo_top", "campaign__redo_top", "campaign__redo_top__target"
        )
        .filter(campaign_id=pk, user=request.user)
        .first()
        if request.user.is_authenticated
        else None
    )
    if membership is None:
        raise Http404
    if change and not membership.can_change:
        raise PermissionDenied(_("Viewers can look but not change the campaign."))
    return membership.campaign, membership


def campaign_context(
    campaign: Campaign, membership: Membership, request: HttpRequest | None = None, **extra: Any
) -> dict[str, Any]:
    game = campaign.game_module
    state = campaign.state
    redo_event = campaign.redo_top.target if campaign.redo_top else None
    context = {
        "tab": "table",
        "undo_text": campaign.undo_top.describe(game) if campaign.undo_top else "",
        "redo_text": redo_event.describe(game) if redo_event else "",
        "campaign": campaign,
        "membership": membership,
        "game": game,
        "state": state,
        "undo_event": campaign.undo_top,
        "redo_event": redo_event,
        "redo_marker": campaign.redo_top,
        "error": None,
        "page": "",
        **game.context(campaign, state, request),
    }
    context.update(extra)
    return context


# Home, creating, importing


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "welcome.html")
    campaigns = Campaign.objects.for_user(request.user).order_by("archived", "-updated")
    return render(request, "home.html", {"campaigns": campaigns, "games": GAMES})


@login_required
@require_GET
def choose_game(request: HttpRequest) -> HttpResponse:
    return render(request, "new-campaign.html", {"games": GAMES})


@login_required
@require_http_methods(["GET", "POST"])
def new_campaign(request: HttpRequest, game_key: str) -> HttpResponse:
    game = GAMES.get(game_key)
    if game is None:
        raise Http404
    if request.method == "POST":
        form = NewCampaignForm(request.POST)
        setup_form = game.setup_form(request.POST)
        if form.is_valid() and setup_form.is_valid():
            setup = setup_form.cleaned_data
            try:
                state = game.initial_state(setup)
            except CommandError as error:
                setup_form.add_error(None, error.message)
            else:
                name = form.cleaned_data["name"].strip()
                state.update(name=name, archived=False)
                with transaction.atomic():
                    campaign = Campaign.objects.create(
                        game=game.key, name=name, setup=setup, initial_state=state, state=state
                    )
                    Membership.objects.create(
                        campaign=campaign, user=request.user, role=Membership.Role.OWNER
                    )
                return redirect("campaigns:campaign", pk=campaign.pk)
        status = 422
    else:
        form, setup_form, status = NewCampaignForm(), game.setup_form(), 200
    return render(
        request,
        "new-campaign-form.html",
        {"game": game, "form": form, "setup_form": setup_form},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_view(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            upload = form.cleaned_data["file"]
            if upload.size > settings.COMPANION_IMPORT_MAX_BYTES:
                form.add_error("file", _("The file is larger than a campaign can be (5 MB)."))
            else:
                try:
                    campaign = import_campaign(upload.read(), request.user)
                except ImportRefused as refusal:
                    form.add_error("file", refusal.message)
                else:
                    messages.success(request, _("Imported “%(name)s”.") % {"name": campaign.name})
                    return redirect("campaigns:campaign", pk=campaign.pk)
    return render(request, "import.html", {"form": form}, status=status)


# The campaign's own pages


@login_required
@require_GET
def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    context = campaign_context(campaign, membership, request)
    return render_campaign(request, campaign, context)


@login_required
@require_GET
def game_page(request: HttpRequest, pk: int, page: str) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    if page not in campaign.game_module.pages:
        raise Http404
    context = campaign_context(campaign, membership, request, page=page, tab=page)
    return render_campaign(request, campaign, context)


SETTINGS = "settings"  # the settings page posts its rename through `act` too


def posted_page(request: HttpRequest, campaign: Campaign) -> str:
    page = request.POST.get("page", "")
    return page if page in campaign.game_module.pages or page == SETTINGS else ""


def render_campaign(request: HttpRequest, campaign: Campaign, context, status: int = 200):
    page = context.get("page", "")
    if page == SETTINGS:
        template = "settings.html"
        context.setdefault("delete_form", DeleteForm(campaign_name=campaign.name))
    else:
        template = campaign.game_module.template_for(page)
    if request.htmx:
        template += "#content"
    response = render(request, template, context, status=status)
    response["X-Campaign-Version"] = str(campaign.version)
    return response


@login_required
@require_POST
def act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """Every change a game offers comes through here: validate, apply as one event, redraw."""
    campaign, membership = member_campaign(request, pk, change=True)
    command = campaign.game_module.commands.get(action)
    if command is None:
        raise Http404
    if membership.role not in command.roles:
        raise PermissionDenied(_("Only the owner can do that."))
    form = command.form(request.POST, auto_id=False)
    message, status, field = None, 200, None
    if form.is_valid():
        try:
            campaign.apply(action, form.cleaned_data, request.user, seen_version(request))
        except Stale as stale:
            message, status = stale.message, 409
        except CommandError as refused:
            message, status, field = refused.message, 422, refused.field
            form.add_error(field if field in form.fields else None, message)
    else:
        message, status = form_message(form), 422
        field = next(iter(form.errors), None)
    if message is None and not request.htmx:
        return redirect(campaign_url(campaign, request))
    region = request.POST.get("region", "")
    error = Refusal(
        region=region if REGION.match(region) else "",
        message=message or "",
        data=request.POST,
        field=field,
        action=action,
        form=form,
    )
    page = posted_page(request, campaign)
    context = campaign_context(
        campaign,
        membership,
        request,
        error=error if message else None,
        page=page,
        tab=page or "table",
    )
    response = render_campaign(request, campaign, context, status=status)
    if message and f'id="{error.region}"' not in response.content.decode():
        # The form's region is gone (say, its tracker was removed on another phone): the
        # message goes to the undo bar, which every page has, so it is never lost.
        error.region, error.form = "undo-bar", None
        response = render_campaign(request, campaign, context, status=status)
    return response


def seen_version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def form_message(form) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            parts.append(f"{label}: {error}" if label else str(error))
    return " ".join(parts)


def campaign_url(campaign: Campaign, request: HttpRequest) -> str:
    page = posted_page(request, campaign)
    if page == SETTINGS:
        url = reverse("campaigns:settings", args=[campaign.pk])
    elif page:
        url = reverse("campaigns:game-page", args=[campaign.pk, page])
    else:
        url = reverse("campaigns:campaign", args=[campaign.pk])
    region = request.POST.get("region", "")
    return f"{url}#{region}" if REGION.match(region) else url


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _undo_or_redo(request, pk, "undo")


@login_required
@require_POST
def redo(request: HttpRequest, pk: int) -> HttpResponse:
    return _undo_or_redo(request, pk, "redo")


def _undo_or_redo(request: HttpRequest, pk: int, which: str) -> HttpResponse:
    campaign, membership = member_campaign(request, pk, change=True)
    try:
        event_id = int(request.POST.get("event", ""))
    except ValueError:
        event_id = None
    message, status = None, 200
    try:
        getattr(campaign, which)(request.user, event_id)
    except Stale as stale:
        message, status = stale.message, 409
    except CommandError as refused:
        message, status = refused.message, 422
    back = request.POST.get("back", "")
    page = back if back in campaign.game_module.pages or back == SETTINGS else ""
    if message is None and not request.htmx:
        if back == "history":
            return redirect("campaigns:history", pk=campaign.pk)
        if page == SETTINGS:
            return redirect("campaigns:settings", pk=campaign.pk)
        if page:
            return redirect("campaigns:game-page", pk=campaign.pk, page=page)
        return redirect("campaigns:campaign", pk=campaign.pk)
    error = Refusal("undo-bar", message) if message else None
    context = campaign_context(campaign, membership, request, error=error, page=page)
    if back == "history":
        return history_response(request, campaign, context, status)
    context["tab"] = page or "table"
    return render_campaign(request, campaign, context, status=status)


@login_required
@require_GET
def history(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    return history_response(request, campaign, campaign_context(campaign, membership, request))


def history_response(request, campaign, context, status=200):
    events = campaign.events.select_related("actor").order_by("-seq")
    paginator = Paginator(events, 30, allow_empty_first_page=True)
    # The count comes from the version, not a COUNT(*): one event per version.
    paginator.count = campaign.version
    page = paginator.get_page(request.GET.get("page"))
    game = campaign.game_module
    rows = [
        {
            "event": event,
            "text": event.describe(game),
            "who": display_name(event.actor, event.actor_name),
            "undone_kind": event.kind != Event.Kind.DO,
        }
        for event in page.object_list
    ]
    context.update(page=page, rows=rows)
    template = "history.html#content" if request.htmx else "history.html"
    response = render(request, template, context, status=status)
    response["X-Campaign-Version"] = str(campaign.version)
    return response


@login_required
@require_GET
def version(request: HttpRequest, pk: int) -> JsonResponse:
    """The polling fallback: the campaign's version, for phones that cannot hold a stream."""
    campaign, _membership = member_campaign(request, pk)
    return JsonResponse({"version": campaign.version})


async def stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Server-sent events: one `version` message whenever the campaign's version moves.

    The stream reads the version from the database, so a change made through any server process
    (several behind a proxy on one PostgreSQL) reaches every phone.
    """
    user = await request.auser()
    if request.method != "GET":
        return HttpResponse(status=405)
    if not user.is_authenticated:
        raise Http404
    membership = await Membership.objects.filter(campaign_id=pk, user=user).afirst()
    if membership is None:
        raise Http404
    try:
        last_seen = int(request.GET.get("v", "-1"))
    except ValueError:
        last_seen = -1

    async def events():
        nonlocal last_seen
        interval = settings.COMPANION_STREAM_INTERVAL
        loop = asyncio.get_running_loop()
        ends = loop.time() + settings.COMPANION_STREAM_LIFETIME
        quiet = 0.0
        yield "retry: 1000\n\n"
        while loop.time() < ends:
            current = (
                await Campaign.objects.filter(pk=pk).values_list("version", flat=True).afirst()
            )
            if current is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if current != last_seen:
                last_seen = current
                quiet = 0.0
                yield f"event: version\ndata: {json.dumps({'version': current})}\n\n"
            elif quiet >= 15:
                quiet = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(interval)
            quiet += interval

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    # Compressing would hold messages back in the gzip buffer.
    response["Content-Encoding"] = "identity"
    return response


# Members and invitations


@login_required
@require_GET
def members(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    return members_response(request, campaign, membership)


def members_response(request, campaign, membership, status=200, error=None):
    invite_url = request.build_absolute_uri(reverse("campaigns:join", args=[campaign.invite_token]))
    qr = segno.make(invite_url, error="m").svg_inline(
        dark="#111", light="#fff", border=2, omitsize=True
    )
    context = campaign_context(
        campaign,
        membership,
        request,
        members=campaign.memberships.select_related("user"),
        invite_url=invite_url if membership.is_owner else None,
        invite_qr=qr if membership.is_owner else None,
        error=error,
    )
    template = "members.html#content" if request.htmx else "members.html"
    return render(request, template, context, status=status)


def owner_campaign(request: HttpRequest, pk: int):
    campaign, membership = member_campaign(request, pk)
    if not membership.is_owner:
        raise PermissionDenied(_("Only the owner can do that."))
    return campaign, membership


@login_required
@require_POST
def rotate_invite(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _membership = owner_campaign(request, pk)
    campaign.rotate_invite()
    messages.success(request, _("A new invitation link is ready; the old one no longer works."))
    return redirect("campaigns:members", pk=campaign.pk)


def other_member(request: HttpRequest, pk: int, form_class, refusal: str):
    """The campaign, and the member (not the owner) a members form names, or a refusal page."""
    campaign, membership = owner_campaign(request, pk)
    form = form_class(request.POST)
    if not form.is_valid():
        return (
            campaign,
            None,
            None,
            members_response(request, campaign, membership, 422, form_message(form)),
        )
    target = campaign.memberships.filter(pk=form.cleaned_data["member"]).first()
    if target is None or target.is_owner:
        return campaign, None, None, members_response(request, campaign, membership, 422, refusal)
    return campaign, target, form, None


@login_required
@require_POST
def remove_member(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, target, _form, refused = other_member(
        request, pk, MemberForm, _("That member cannot be removed.")
    )
    if refused:
        return refused
    target.delete()
    messages.success(
        request,
        _("Removed %(name)s. The invitation still works for them: make a new link to stop that.")
        % {"name": display_name(target.user)},
    )
    return redirect("campaigns:members", pk=campaign.pk)


@login_required
@require_POST
def set_role(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, target, form, refused = other_member(
        request, pk, RoleForm, _("That member's role cannot be changed.")
    )
    if refused:
        return refused
    target.role = form.cleaned_data["role"]
    target.save(update_fields=["role"])
    return redirect("campaigns:members", pk=campaign.pk)


@require_http_methods(["GET", "POST"])
@rate_limited("join")
def join(request: HttpRequest, token: str) -> HttpResponse:
    """One tap to join from the invitation: a guest account bound to this browser if needed."""
    campaign = Campaign.objects.filter(invite_token=token).first()
    if campaign is None or len(token) > 32:
        return render(request, "join-invalid.html", status=404)
    if request.user.is_authenticated:
        existing = campaign.memberships.filter(user=request.user).exists()
        if existing:
            return redirect("campaigns:campaign", pk=campaign.pk)
    initial = {"display_name": display_name(request.user)} if request.user.is_authenticated else {}
    form = JoinForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = request.user
            if not user.is_authenticated:
                user = get_user_model().objects.create_user(
                    username=f"guest-{get_random_string(10).lower()}",
                    first_name=form.cleaned_data["display_name"],
                )
                user.set_unusable_password()
                user.save()
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            elif not user.first_name:
                user.first_name = form.cleaned_data["display_name"]
                user.save(update_fields=["first_name"])
            Membership.objects.get_or_create(campaign=campaign, user=user)
        return redirect("campaigns:campaign", pk=campaign.pk)
    status = 422 if request.method == "POST" else 200
    return render(request, "join.html", {"campaign": campaign, "form": form}, status=status)


# Settings: rename, archive, delete, export


@login_required
@require_GET
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = member_campaign(request, pk)
    context = campaign_context(
        campaign, membership, request, delete_form=DeleteForm(campaign_name=campaign.name)
    )
    return render(request, "settings.html", context)


@login_required
@require_POST
def delete_campaign(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = owner_campaign(request, pk)
    form = DeleteForm(request.POST, campaign_name=campaign.name)
    if not form.is_valid():
        context = campaign_context(campaign, membership, request, delete_form=form)
        return render(request, "settings.html", context, status=422)
    name = campaign.name
    campaign.delete()
    messages.success(request, _("Deleted “%(name)s”.") % {"name": name})
    return redirect("campaigns:home")


@login_required
@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _membership = member_campaign(request, pk)
    body = json.dumps(export_campaign(campaign), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(campaign.name) or 'campaign'}-{campaign.version}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Accounts


@require_http_methods(["GET", "POST"])
@rate_limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("campaigns:home")
    status = 422 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """A guest keeps the account by choosing a username and password."""
    user = request.user
    initial = {} if user.has_usable_password() else {"username": ""}
    form = KeepAccountForm(request.POST or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        user.username = form.cleaned_data["username"]
        user.set_password(form.cleaned_data["password"])
        user.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Saved: you can now log in with that username and password."))
        return redirect("campaigns:home")
    status = 422 if request.method == "POST" else 200
    return render(request, "registration/account.html", {"form": form}, status=status)
