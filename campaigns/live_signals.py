"""What announces a change to the open streams (campaigns/live.py): the signals of every save
and deletion that a stream must hear of, whichever code made it (a view, a command, the admin,
a management command)."""

from __future__ import annotations

from campaigns.live import announce
from campaigns.live_sessions import digest, session_model


def campaign_saved(sender, instance, created: bool, using: str, **kwargs) -> None:
    if created:
        return
    if "invite_token" in (kwargs.get("update_fields") or ()):
        # A new invitation retires the table display's link (made from it): its stream ends.
        announce(f"{instance.pk} display", using)
    announce(f"{instance.pk} v {instance.version}", using)


def campaign_deleted(sender, instance, using: str, **kwargs) -> None:
    announce(f"{instance.pk} gone", using)


def membership_deleted(sender, instance, using: str, origin=None, **kwargs) -> None:
    from campaigns.models import Campaign

    # A campaign deleted takes its members with it: its phones hear "gone" (deleted), not that
    # each of them was removed.
    if isinstance(origin, Campaign):
        return
    announce(f"{instance.campaign_id} left {instance.user_id}", using)


def membership_saved(sender, instance, created: bool, using: str, **kwargs) -> None:
    if not created:
        announce(f"{instance.campaign_id} role {instance.user_id} {instance.role}", using)


def session_deleted(sender, instance, using: str, **kwargs) -> None:
    """A session flushed: logged out, logged in as someone else, or refused by Django for a
    changed password."""
    announce(f"session {digest(instance.session_key)}", using)


def logged_out(sender, request, **kwargs) -> None:
    # Before Django flushes the session (which `session_deleted` hears too, if it is stored).
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        announce(f"session {digest(session_key)}")


def user_saved(sender, instance, created: bool, update_fields, using: str, **kwargs) -> None:
    # A log-in stamps `last_login` only: nothing a session depends on.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    announce(f"user {instance.pk}", using)


def connect_signals() -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.signals import user_logged_out
    from django.db.models.signals import post_delete, post_save

    from campaigns.models import Campaign, Membership

    post_save.connect(membership_saved, sender=Membership, dispatch_uid="live-membership-saved")
    post_delete.connect(session_deleted, sender=session_model(), dispatch_uid="live-session")
    user_logged_out.connect(logged_out, dispatch_uid="live-logged-out")
    post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="live-user-saved")

    post_save.connect(campaign_saved, sender=Campaign, dispatch_uid="live-campaign-saved")
    post_delete.connect(campaign_deleted, sender=Campaign, dispatch_uid="live-campaign-deleted")
    post_delete.connect(
        membership_deleted, sender=Membership, dispatch_uid="live-membership-deleted"
    )
