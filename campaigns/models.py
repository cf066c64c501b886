"""Campaigns, who belongs to them, and the append-only events that change them.

`Campaign.state` caches the fold of the campaign's events through its game's commands and
`Campaign.version` counts the events, so a page reads one row and never replays. Undo and redo
are events too: linear undo, kept as two stacks linked through the events themselves
(`Event.chain`), so finding what to undo or redo next reads one row. An undo rebuilds the state
below from the nearest `Snapshot` and the few changes above it (`campaigns.history`), so it
costs the same at the 100,000th event as at the 10th.
"""

from __future__ import annotations

import datetime
import random
import secrets
from typing import TYPE_CHECKING, Unpack

from django.conf import settings
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns import bidi, history
from campaigns.changes import Asked, User, check_role, phone_of, same_tap
from campaigns.commands import CommandError, Payload, State
from campaigns.games import GAMES, game_choices
from campaigns.games.base import AnyGame

if TYPE_CHECKING:
    from django.contrib.auth.models import User as AuthUser

_system_random = random.SystemRandom()


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Stale(CommandError):
    """The screen the command was made from is older than the campaign."""


class CampaignQuerySet(models.QuerySet["Campaign"]):
    def for_user(self, user: User) -> CampaignQuerySet:
        if user is None or not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


class Campaign(models.Model):
    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    name = models.CharField(_("name"), max_length=80)
    archived = models.BooleanField(_("archived"), default=False)
    setup = models.JSONField(default=dict)
    initial_state = models.JSONField(default=dict)
    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    undo_top = models.ForeignKey(
        "Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    redo_top = models.ForeignKey(
        "Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = CampaignQuerySet.as_manager()
    # Not stored: what the home page's list says of each campaign (campaigns.views.site.home).
    member_names: str
    changed_now: bool

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return self.name

    @property
    def game_module(self) -> AnyGame:
        return GAMES[self.game]

    # Changing the campaign. Each verb locks the row, then reads the top of the undo or redo
    # stack in a query of its own: joined to the locking query, PostgreSQL re-reads the locked
    # row after a concurrent commit but not the joined row, so the top just made by that commit
    # came back empty ("nothing to undo" under load, a change chained to nothing).

    def apply(
        self,
        action: str,
        data: Payload,
        user: User,
        seen_version: int | None = None,
        rng: random.Random | None = None,
        change: str | None = None,
    ) -> Event:
        """Lock the row, resolve and apply one command, append its event, save the new state.

        Raises CommandError (nothing changed) when the command does not fit the campaign as it
        is now, and Stale when a command that sets an absolute value was made from an old screen.
        A change whose id (`change`) was applied before is not applied again: its event returns.
        """
        commands = self.game_module.commands
        command = commands[action]
        tapped = timezone.now()  # before waiting for the lock: when the tap came
        with transaction.atomic():
            campaign = _locked().get(pk=self.pk)
            if done := campaign._applied(change):
                return done
            if command.random_outcome and (same := campaign._same_tap(change, tapped)):
                return same
            if (
                command.stale_check
                and seen_version is not None
                and seen_version != campaign.version
            ):
                raise campaign._stale(seen_version, user, change)
            state = campaign.state  # read under the lock, this call's own: no copy needed
            payload = history.apply(commands, state, action, data, rng or _system_random)
            below = campaign.undo_top
            budget, snapshot = history.budget(below.budget if below else None, payload, state)
            event = campaign._append(
                user, Event.Kind.DO, action, payload, chain=below, budget=budget, change=change
            )
            if snapshot:
                Snapshot.objects.create(event=event, state=state)
            campaign.undo_top, campaign.redo_top = event, None
            campaign._save_state(state)
        self._take(campaign)
        return event

    def undo(self, user: User, event_id: int | None = None, **asked: Unpack[Asked]) -> Event:
        """Undo the newest change still in effect (the one the phone showed, if it says)."""
        return self._undo_or_redo(Event.Kind.UNDO, user, event_id, **asked)

    def redo(self, user: User, event_id: int | None = None, **asked: Unpack[Asked]) -> Event:
        """Apply again the change most recently undone, with the same outcome (draws included)."""
        return self._undo_or_redo(Event.Kind.REDO, user, event_id, **asked)

    def _undo_or_redo(
        self,
        kind: str,
        user: User,
        event_id: int | None,
        change: str | None = None,
        role: str | None = None,
    ) -> Event:
        """Undo or redo, one way: lock the row, take the top of the undo (redo) stack, which must
        be the event the phone showed (`event_id`, if it says), onto the other stack. It needs
        the role its change's command needs (`role`: the member's, when a member asks). An undo
        rebuilds the state below the change from the nearest snapshot; a redo is one apply."""
        undoing = kind == Event.Kind.UNDO
        with transaction.atomic():
            campaign = _locked("undo_top" if undoing else "redo_top").get(pk=self.pk)
            if done := campaign._applied(change):
                return done
            top = campaign.undo_top if undoing else campaign.redo_top
            target = top if undoing or top is None else top.target  # a redo's: what was undone
            if top is None or target is None:
                raise CommandError(history.nothing_to(kind))
            if event_id is not None and top.pk != event_id:
                raise Stale(gettext("Changed meanwhile on another phone: here is the fresh state."))
            check_role(campaign.game_module, target.action, role)
            if undoing:
                state = campaign.state_at(target.chain_id)
            else:
                state = campaign.state  # read under the lock, this call's own: no copy needed
                history.apply(campaign.game_module.commands, state, target.action, target.data)
            event = campaign._append(
                user,
                kind,
                target.action,
                target.data,
                target=target,
                chain=campaign.redo_top if undoing else None,
                change=change,
            )
            if undoing:  # the undo goes on top of the redo stack
                campaign.undo_top_id, campaign.redo_top = target.chain_id, event
            else:
                campaign.undo_top, campaign.redo_top_id = target, top.chain_id
            campaign._save_state(state)
        self._take(campaign)
        return event

    def replay(self) -> State:
        """The state from the initial state and every change still in effect, in order, folded
        without snapshots: what the cached state and every snapshot must agree with."""
        events = self.events.order_by("seq").values_list("seq", "kind", "action", "data")
        folded = history.replay(
            self.game_module.commands, self.initial_state, events.iterator(), keep_snapshots=False
        )
        return folded.state

    def state_at(self, event_id: int | None) -> State:
        """The state with the change `event_id` on top of the stack (None: nothing in effect),
        from the stored changes down to the nearest snapshot (`history.state_at`); a history
        stored before snapshots existed gains some on the way."""
        walked = Event.objects.raw(_WALK_DOWN, [event_id]) if event_id is not None else ()
        changes = {
            event.pk: history.Change(
                event.action,
                event.data,
                event.chain_id,
                # A column of the walk's own (_WALK_DOWN), not a field; 0 or 1 on SQLite.
                snapshot=bool(event.has_snapshot),  # type: ignore[attr-defined]
            )
            for event in walked
        }
        return history.state_at(
            self.game_module.commands,
            self.initial_state,
            event_id,
            changes,
            snapshot=_stored_state,
            heal=_keep_state,
        )

    def _take(self, locked: Campaign) -> None:
        """Become the row just saved under the lock, with the undo bar's events it holds: what
        `refresh_from_db` would read, without reading it again."""
        for field in self._meta.concrete_fields:
            setattr(self, field.attname, getattr(locked, field.attname))
        self._state.fields_cache = dict(locked._state.fields_cache)

    def _applied(self, change: str | None) -> Event | None:
        """The event a change with this id made, when a phone sends it again."""
        return self.events.filter(change=change).first() if change else None

    def _same_tap(self, change: str | None, tapped: datetime.datetime) -> Event | None:
        """This phone's draw, reveal or roll made less than `same_tap()` before `tapped`."""
        phone, commands = phone_of(change) + ".", self.game_module.commands
        recent = self.events.filter(kind=Event.Kind.DO, created__gt=tapped - same_tap())
        for event in recent.order_by("-seq")[:8] if change else ():
            command = commands.get(event.action)
            if (event.change or "").startswith(phone) and command and command.random_outcome:
                return event
        return None

    def _stale(self, seen_version: int, user: User, change: str | None) -> Stale:
        """The refusal of a change made from an old screen, saying what changed since (the
        newest three) and whether it was this phone's own earlier tap or another phone."""
        since = self.events.filter(seq__gt=seen_version)
        count = since.count()
        if not count:
            return Stale(gettext("Changed meanwhile on another phone: here is the fresh state."))
        others = since.exclude(actor_id=getattr(user, "pk", None))
        if change:
            others = others | since.exclude(change__startswith=phone_of(change) + ".")
        game = self.game_module
        newest = reversed(since.select_related("actor").order_by("-seq")[:3])
        shown = "; ".join(event.describe(game) for event in newest)
        if count > 3:
            shown = gettext("%(changes)s and %(n)d earlier changes") % {
                "changes": shown,
                "n": count - 3,
            }
        if others.exists():
            message = gettext(
                "Changed meanwhile on another phone (%(changes)s): here is the fresh state."
            )
        else:
            message = gettext(
                "Changed meanwhile by your earlier tap on this phone (%(changes)s): here is "
                "the fresh state; send it again if you still want it."
            )
        return Stale(message % {"changes": shown})

    def _append(
        self,
        user: User,
        kind: str,
        action: str,
        data: Payload,
        target: Event | None = None,
        chain: Event | None = None,
        budget: int = 0,
        change: str | None = None,
    ) -> Event:
        self.version += 1
        return Event.objects.create(
            campaign=self,
            seq=self.version,
            kind=kind,
            action=action,
            data=data,
            actor=user if user is not None and user.is_authenticated else None,
            target=target,
            chain=chain,
            budget=budget,
            change=change or None,
        )

    def _save_state(self, state: State) -> None:
        self.state = state
        self.name = state.get("name", self.name)
        self.archived = bool(state.get("archived", False))
        changed = ["state", "name", "archived", "version", "undo_top", "redo_top", "updated"]
        self.save(update_fields=changed)

    def rotate_invite(self) -> None:
        self.invite_token = new_invite_token()
        self.save(update_fields=["invite_token"])


SEEN_EVERY = datetime.timedelta(minutes=1)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        PLAYER = "player", _("player")
        VIEWER = "viewer", _("viewer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined = models.DateTimeField(auto_now_add=True)
    # When the member last opened or changed the campaign, to the minute (`seen`); or None.
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]
        ordering = ["joined"]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign_id} ({self.role})"

    @property
    def can_change(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.PLAYER)

    @property
    def here_now(self) -> bool:
        return self.last_seen is not None and timezone.now() - self.last_seen < SEEN_EVERY * 2

    def seen(self) -> None:
        """Note that the member is here: one UPDATE at most once a minute, not one per tap."""
        now = timezone.now()
        if self.last_seen is None or now - self.last_seen >= SEEN_EVERY:
            Membership.objects.filter(pk=self.pk).update(last_seen=now)
            self.last_seen = now

    @property
    def is_owner(self) -> bool:
        return self.role == self.Role.OWNER


class Event(models.Model):
    class Kind(models.TextChoices):
        DO = history.DO, _("change")
        UNDO = history.UNDO, _("undo")
        REDO = history.REDO, _("redo")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices)
    action = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # Who, for an event that came in an imported file (its people are not this site's users).
    actor_name = models.CharField(max_length=150, blank=True)
    # An undo or redo names the change it undoes or redoes.
    target = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # The stacks: a change points at the change in effect below it, an undo at the undo below it.
    chain = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A change: what was left before a snapshot was due, after it (campaigns.history).
    budget = models.IntegerField(default=0)
    # The id the phone gave the change (CHANGE_ID): a change sent twice is applied once.
    change = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (NULL: no id, many)
    # A default, not auto_now: an import keeps the times in its file.
    created = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="one_event_per_version"),
            models.UniqueConstraint(fields=["campaign", "change"], name="one_event_per_change"),
        ]
        ordering = ["-seq"]

    def __str__(self) -> str:
        return f"{self.campaign_id}#{self.seq} {self.kind} {self.action}"

    def describe(self, game: AnyGame) -> str:
        """This event in plain words, in the reader's language (the game is the campaign's)."""
        command = game.commands.get(self.action)
        try:
            # The names the group typed, isolated for direction inside the words (bidi.py).
            text = command.words(bidi.isolate_payload(self.data)) if command else self.action
        except history.MALFORMED:
            try:
                text = command.words(self.data) if command else self.action
            except history.MALFORMED:
                text = self.action
        if self.kind == self.Kind.UNDO:
            return gettext("Undid: %(change)s") % {"change": text}
        if self.kind == self.Kind.REDO:
            return gettext("Redid: %(change)s") % {"change": text}
        return text


class Snapshot(models.Model):
    """The state with this change on top of the stack. Never stale: what is below a change
    never changes."""

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="snapshot"
    )
    state = models.JSONField()

    def __str__(self) -> str:
        return f"state at {self.event_id}"


# The change `%s` and the changes below it, down to the first with a snapshot (or the bottom).
_WALK_DOWN = f"""
WITH RECURSIVE walk(id, stop) AS (
    SELECT e.id, EXISTS(SELECT 1 FROM {Snapshot._meta.db_table} s WHERE s.event_id = e.id)
    FROM {Event._meta.db_table} e WHERE e.id = %s
  UNION ALL
    SELECT e.chain_id,
        EXISTS(SELECT 1 FROM {Snapshot._meta.db_table} s WHERE s.event_id = e.chain_id)
    FROM walk w JOIN {Event._meta.db_table} e ON e.id = w.id
    WHERE NOT w.stop AND e.chain_id IS NOT NULL
)
SELECT e.id, e.action, e.data, e.chain_id, walk.stop AS has_snapshot
FROM walk JOIN {Event._meta.db_table} e ON e.id = walk.id
"""


def _stored_state(event_id: int) -> State:
    """The snapshot kept at this change: a state of its own, just read."""
    state: State = Snapshot.objects.get(event_id=event_id).state
    return state


def _keep_state(event_id: int, state: State) -> None:
    """Keep a snapshot at this change (a history stored before snapshots existed)."""
    Snapshot.objects.create(event_id=event_id, state=state)


def _locked(top: str = "undo_top") -> models.QuerySet[Campaign]:
    """The campaign row to change (a change, an undo, a redo), locked; on SQLite with the top
    of the stack it takes from joined (`top`: the undo stack's for a change, whose budget it
    reads, and an undo; the redo stack's for a redo). SQLite's BEGIN IMMEDIATE holds the whole
    database before the query runs, so the join sees every commit; PostgreSQL re-reads only the
    locked row after a concurrent commit, so there the top is read in a query of its own (see
    "Changing the campaign" above)."""
    rows = Campaign.objects.select_for_update()
    return rows.select_related(top) if connection.vendor == "sqlite" else rows


def display_name(user: AuthUser | None, fallback: str = "") -> str:
    if user is None:
        return fallback or gettext("someone who left")
    return user.first_name or user.username


class RateCount(models.Model):
    """How many attempts one address (or account) made at one thing in one minute, kept in the
    database so that every server process counts against the same limit."""

    key = models.CharField(max_length=120)
    window = models.BigIntegerField(db_index=True)  # minutes since the epoch
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "window"], name="one_count_per_key_and_minute")
        ]

    def __str__(self) -> str:
        return f"{self.key} @{self.window}: {self.count}"


class LiveStamp(models.Model):
    """One row, counting the changes to who may look at a campaign (a session ended, an account
    saved, a member removed or given another role, an invitation made anew). On SQLite the
    streams' watcher in every process reads it with the campaigns' versions, and looks again at
    the streams' sessions and memberships only when it moved (campaigns/live.py)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    changes = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.changes} changes to who may look"
