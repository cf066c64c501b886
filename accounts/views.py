"""Accounts: sign-up, log-in and log-out, the account page, and joining a campaign by its
invitation (a guest account bound to this browser when the phone has none)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as log_in
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import JoinForm, KeepAccountForm, SignupForm
from accounts.ratelimit import rate_limited
from campaigns.models import Campaign, Membership, display_name
from campaigns.views.access import SignedInRequest

BACKEND = "django.contrib.auth.backends.ModelBackend"


def forgotten_on_the_phone(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log out: the phone forgets the pages it kept to show offline (static/sw.js forgets them
    as the form goes; Clear-Site-Data is the browsers' own way, for the HTTP cache)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if request.method == "POST":
            response["Clear-Site-Data"] = '"cache"'
        return response

    return wrapped


login = rate_limited("login")(auth_views.LoginView.as_view())
logout = forgotten_on_the_phone(auth_views.LogoutView.as_view())


@require_http_methods(["GET", "POST"])
@rate_limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        log_in(request, user, backend=BACKEND)
        return redirect("campaigns:home")
    status = 422 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@rate_limited("account")
def account(request: SignedInRequest) -> HttpResponse:
    """A guest keeps the account by choosing a username and password; an account with a
    password changes it by giving the current one."""
    user = request.user
    # An account's username is filled in (changing the password alone keeps it); a guest's is
    # one the site made up, so the guest picks one.
    initial = {"username": user.username} if user.has_usable_password() else {"username": ""}
    form = KeepAccountForm(request.POST or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        user.username = form.cleaned_data["username"]
        user.set_password(form.cleaned_data["password"])
        user.save()
        log_in(request, user, backend=BACKEND)
        messages.success(request, _("Saved: you can now log in with that username and password."))
        return redirect("campaigns:home")
    status = 422 if request.method == "POST" else 200
    return render(request, "registration/account.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
@rate_limited("join")
def join(request: HttpRequest, token: str) -> HttpResponse:
    """One tap to join from the invitation: a guest account bound to this browser if needed."""
    campaign = Campaign.objects.filter(invite_token=token).first()
    if campaign is None or len(token) > 32:
        return render(request, "registration/join-invalid.html", status=404)
    if request.user.is_authenticated:
        existing = campaign.memberships.filter(user=request.user).exists()
        if existing:
            return redirect("campaigns:campaign", pk=campaign.pk)
    initial = {"display_name": display_name(request.user)} if request.user.is_authenticated else {}
    form = JoinForm(request.POST or None, initial=initial, campaign=campaign, user=request.user)
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
                log_in(request, user, backend=BACKEND)
            elif not user.first_name:
                user.first_name = form.cleaned_data["display_name"]
                user.save(update_fields=["first_name"])
            seat = form.cleaned_data.get("take_back")
            if seat is not None:
                # The seat (its role, its place in the list) moves to this phone's account; the
                # old phone's account no longer belongs to the campaign.
                seat.user, seat.last_seen = user, timezone.now()
                seat.save(update_fields=["user", "last_seen"])
                messages.success(request, _("Welcome back: this phone has your seat now."))
            else:
                Membership.objects.get_or_create(
                    campaign=campaign, user=user, defaults={"last_seen": timezone.now()}
                )
        return redirect("campaigns:campaign", pk=campaign.pk)
    status = 422 if request.method == "POST" else 200
    context = {"campaign": campaign, "form": form}
    return render(request, "registration/join.html", context, status=status)
