"""The site's pages outside a campaign: home, a new campaign, import, the manifest and the
service worker. Accounts and joining by invitation are the `accounts` app's."""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns import bidi
from campaigns.commands import CommandError
from campaigns.forms import ImportForm, NewCampaignForm
from campaigns.games import GAMES
from campaigns.models import Campaign, Membership, display_name
from campaigns.transfer import ImportRefused, import_campaign
from campaigns.views.access import Request, SignedInRequest
from campaigns.views.offline import keep_as, kept
from campaigns.words import joined


@require_GET
def home(request: Request) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "welcome.html")
    campaigns = (
        Campaign.objects.for_user(request.user)
        .order_by("archived", "-updated")
        .prefetch_related(Prefetch("memberships", Membership.objects.select_related("user")))
    )
    now = timezone.now()
    for campaign in campaigns:  # when and who: two campaigns of one name told apart
        names = (bidi.isolate(display_name(m.user)) for m in campaign.memberships.all())
        campaign.member_names = joined(names)
        campaign.changed_now = now - campaign.updated < datetime.timedelta(minutes=1)
    who = keep_as(request)
    context = {"campaigns": campaigns, "games": GAMES, "keep_as": who}
    return kept(render(request, "home.html", context), who)


@require_GET
def manifest(request: Request) -> JsonResponse:
    """The web app manifest: a phone adds the site to its home screen with this name and icon,
    and opens it without the browser's bars."""
    icons = [
        {
            "src": static(f"icons/companion-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
        }
        for size in (192, 512)
    ]
    icons.append({"src": static("icons/companion.svg"), "sizes": "any", "type": "image/svg+xml"})
    body = {
        "name": "Companion",
        "short_name": "Companion",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#141311",
        "theme_color": "#2f5d50",
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=86400"
    return response


# What a page needs from static/ to show without the connection: kept when the worker installs.
OFFLINE_ASSETS = (
    "css/site.css",
    "js/swap.js",
    "js/live.js",
    "js/offline.js",
    "icons/companion.svg",
    "icons/companion-192.png",
)


@functools.cache
def worker_source(debug: bool) -> str:
    """static/sw.js with its settings before it. The cache is named by a hash of both (the
    static files' hashed names and the worker's code), so a deploy that changes either makes a
    new worker that replaces the old cache whole."""
    path = finders.find("sw.js")
    source = Path(str(path)).read_text(encoding="utf-8")
    config = {
        "assets": [static(name) for name in OFFLINE_ASSETS],
        "static": "/" + settings.STATIC_URL.lstrip("/"),
        "logout": reverse("accounts:logout"),
        # Static names carry a hash of their content (not under DEBUG): a kept copy is current.
        "hashed": not debug,
    }
    text = json.dumps(config, sort_keys=True)
    config["version"] = hashlib.sha256((text + source).encode()).hexdigest()[:16]
    return f"self.COMPANION = {json.dumps(config, sort_keys=True)};\n{source}"


@require_GET
def service_worker(request: Request) -> HttpResponse:
    """The service worker, at the site's root so that its scope is the whole site (a worker's
    scope is at most the folder it is served from). Browsers register it only in a secure
    context: https, or http://localhost and 127.0.0.1; on a LAN address over plain http the
    site works as before, without it."""
    response = HttpResponse(
        worker_source(settings.DEBUG), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


@login_required
@require_GET
def choose_game(request: Request) -> HttpResponse:
    return render(request, "new-campaign.html", {"games": GAMES})


@login_required
@require_http_methods(["GET", "POST"])
def new_campaign(request: SignedInRequest, game_key: str) -> HttpResponse:
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
        {"game": game, "form": form, "setup_form": setup_form, "tab": "new"},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def import_view(request: SignedInRequest) -> HttpResponse:
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
                    messages.success(
                        request, _("Imported “%(name)s”.") % {"name": bidi.isolate(campaign.name)}
                    )
                    return redirect("campaigns:campaign", pk=campaign.pk)
    return render(request, "import.html", {"form": form}, status=status)
