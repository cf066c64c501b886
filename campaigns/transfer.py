"""Export a campaign as one JSON file and import such a file as a new campaign.

The format (documented in README.md) holds the set-up and every event; the state is there for
reading, and an import checks it against a replay of the events, so a file that was edited by
hand, cut short or made to do harm is refused whole and creates nothing.
"""

from __future__ import annotations

import datetime
import json
import math
import re

from django.contrib.auth.models import User as AuthUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns import history, upgrades
from campaigns.bulk import EventRow, write_history
from campaigns.commands import CommandError, State
from campaigns.games import GAMES
from campaigns.games.base import AnyGame
from campaigns.models import Campaign, Event, Membership, display_name

FORMAT = "companion-campaign"
# 2: a file's state is in this release's shape. A file of version 1 (every release before,
# since 0f9b593) is brought to it by campaigns.upgrades before its state is compared.
FORMAT_VERSION = 2
READS = (1, FORMAT_VERSION)
MAX_EVENTS = 200_000
# The most levels of lists and objects a file may nest. A campaign file holds a dozen at most;
# the databases refuse JSON nested far deeper (SQLite's JSON functions stop at a thousand or
# fewer levels, so storing such a set-up failed its JSON check), each at its own depth, so the
# file is refused here, before anything is stored, the same way on both.
MAX_DEPTH = 64


class ImportRefused(CommandError):
    """A file refused whole, nothing created: the refusal a tap gets (CommandError), for a
    file, with where in the file the message says."""


def export_campaign(campaign: Campaign) -> dict[str, object]:
    events = campaign.events.order_by("seq").select_related("actor", "target")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported": timezone.now().isoformat(),
        "game": campaign.game,
        "name": campaign.name,
        "created_name": campaign.initial_state.get("name", campaign.name),
        "setup": campaign.setup,
        "version": campaign.version,
        "state": campaign.state,
        "events": [
            {
                "seq": event.seq,
                "kind": event.kind,
                "action": event.action,
                "data": event.data,
                "target": event.target.seq if event.target else None,
                "actor": display_name(event.actor, event.actor_name)
                if event.actor_id or event.actor_name
                else None,
                "created": event.created.isoformat(),
            }
            for event in events
        ],
    }


class NotANumber(ValueError):
    pass


def finite(text: str) -> float:
    """A JSON number with a fraction or exponent; NaN and Infinity (or 1e999) are refused."""
    number = float(text)
    if not math.isfinite(number):
        raise NotANumber(text)
    return number


def not_a_number(text: str) -> float:
    raise NotANumber(text)


# An escaped UTF-16 surrogate (\ud800-\udfff); only a file holding one can decode to a lone one.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def parse(raw: bytes) -> dict[str, object]:
    # PostgreSQL cannot store a NUL character in JSON; no campaign needs one.
    if b"\x00" in raw or b"\\u0000" in raw:
        raise ImportRefused(_("The file holds a character a campaign cannot (NUL)."))
    try:
        document = json.loads(raw.decode("utf-8"), parse_float=finite, parse_constant=not_a_number)
    except UnicodeDecodeError:
        raise ImportRefused(_("The file is not text in UTF-8.")) from None
    except RecursionError:
        raise ImportRefused(_("The file is nested too deeply to be a campaign.")) from None
    except NotANumber:
        raise ImportRefused(
            _("The file holds a number a campaign cannot (NaN, Infinity or too large).")
        ) from None
    except ValueError:
        raise ImportRefused(_("The file is not JSON, or it was cut short.")) from None
    if SURROGATE_ESCAPE.search(raw):
        # A pair of escapes makes one character; a lone half is no character at all, and a
        # database cannot store it as text.
        try:
            json.dumps(document, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ImportRefused(
                _("The file holds text that is not valid Unicode (a lone surrogate).")
            ) from None
    if nested_deeper(document, MAX_DEPTH):
        raise ImportRefused(_("The file is nested too deeply to be a campaign."))
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(_("The file is not a Companion campaign."))
    version = document.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version not in READS:
        raise ImportRefused(_("The file's format version is not one this site reads."))
    return document


def nested_deeper(document: object, limit: int) -> bool:
    """Whether lists and objects in `document` nest more than `limit` levels (without
    recursion: a file may nest far deeper than Python's stack)."""
    stack = [(document, 1)] if isinstance(document, dict | list) else []
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        for child in children:
            if isinstance(child, dict | list):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


# Event times a campaign can hold, in UTC: any later one cannot be shown in every time zone.
EARLIEST = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
LATEST = datetime.datetime(9000, 1, 1, tzinfo=datetime.UTC)


def event_time(value: object) -> datetime.datetime:
    """An event's ISO 8601 time, in UTC (a time without a zone is UTC); ValueError if none."""
    if not isinstance(value, str):
        raise ValueError(value)
    created = datetime.datetime.fromisoformat(value)
    if created.tzinfo is None:
        created = created.replace(tzinfo=datetime.UTC)
    try:
        created = created.astimezone(datetime.UTC)
    except OverflowError:
        raise ValueError(value) from None
    if not EARLIEST <= created < LATEST:
        raise ValueError(value)
    return created


def campaign_name(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise ImportRefused(_("The campaign's name is missing or too long."))
    return value


def import_campaign(raw: bytes, user: AuthUser) -> Campaign:
    """Check the whole file, then create the campaign with its events; or create nothing."""
    document = parse(raw)
    key = document.get("game")
    game = GAMES.get(key) if isinstance(key, str) else None
    if game is None:
        raise ImportRefused(_("The file is for a game this site does not know."))
    name = campaign_name(document.get("name"))
    created_name = campaign_name(document.get("created_name", name))
    setup = document.get("setup")
    events = document.get("events")
    if not isinstance(setup, dict) or not isinstance(events, list):
        raise ImportRefused(_("The file has no set-up or no list of events."))
    if len(events) > MAX_EVENTS:
        raise ImportRefused(_("The file has more events than this site takes."))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != len(events):
        raise ImportRefused(_("The file's version is not its number of events."))
    try:
        initial = game.initial_state(setup)
    except (CommandError, *history.MALFORMED) as error:
        raise ImportRefused(_("The campaign's set-up does not fit the game.")) from error
    initial.update(name=created_name.strip(), archived=False)

    state = document.get("state")
    if document["format_version"] != FORMAT_VERSION and isinstance(state, dict):
        # An earlier release's file: its state in this release's shape, its history read as
        # that release played it.
        state = upgrades.upgrade_state(game.key, state)
        events = upgrades.as_played(game.key, initial, events, state)

    # Checked outside any transaction: other campaigns write on while a big file is read.
    rows, folded = replay_file(game, initial, events)
    if state != folded.state:
        raise ImportRefused(_("The file's state does not match its events."))
    campaign = Campaign.objects.create(
        game=game.key,
        name=folded.state.get("name", name)[:80],
        archived=bool(folded.state.get("archived")),
        setup=setup,
        initial_state=initial,
        state=folded.state,
        version=len(rows),
    )
    try:
        pks = write_history(campaign, rows, folded.snapshots)
        with transaction.atomic():
            # The owner's membership comes last: until then no one sees the campaign.
            campaign.undo_top_id = pks[folded.top] if folded.top is not None else None
            campaign.redo_top_id = pks[folded.undone[-1][0]] if folded.undone else None
            campaign.save(update_fields=["undo_top", "redo_top"])
            Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.OWNER)
    except BaseException:
        campaign.delete()
        raise
    return campaign


def replay_file(
    game: AnyGame, initial: State, events: list[object]
) -> tuple[list[EventRow], history.Replay]:
    """Fold the file's events the way Campaign.apply/undo/redo would have made them, checking
    each change through the same apply() a tap goes through, in the state it was made in, with
    the same snapshots (campaigns.history) an undo uses."""
    folded = history.Replay(game.commands, initial)
    rows: list[EventRow] = []
    for number, item in enumerate(events, start=1):
        where = {"where": _("event %(n)d") % {"n": number}}
        if not isinstance(item, dict) or item.get("seq") != number:
            raise ImportRefused(_("The events are not numbered 1, 2, 3… (%(where)s).") % where)
        kind, action, data = item.get("kind"), item.get("action"), item.get("data")
        if (
            kind not in Event.Kind.values
            or not isinstance(action, str)
            or action not in game.commands
            or not isinstance(data, dict)
        ):
            raise ImportRefused(_("An event is not one this game knows (%(where)s).") % where)
        actor = item.get("actor")
        try:
            created = event_time(item.get("created"))
        except ValueError:
            raise ImportRefused(_("An event has no valid time (%(where)s).") % where) from None
        row: EventRow = {
            "seq": number,
            "kind": kind,
            "action": action,
            "data": data,
            "target": None,
            "chain": None,
            "budget": 0,
            "actor": actor[:150] if isinstance(actor, str) else "",
            "created": created,
        }
        try:
            taken = folded.step(number, kind, action, data, item.get("target"))
        except history.WrongChange:
            wrong = (
                _("An undo names the wrong change (%(where)s).")
                if kind == Event.Kind.UNDO
                else _("A redo names the wrong change (%(where)s).")
            )
            raise ImportRefused(wrong % where) from None
        except CommandError as error:
            # The one refusal of the event core: a change that does not fit, or a value of the
            # wrong kind anywhere in its payload (history.apply).
            raise ImportRefused(
                _("The events do not fit together (%(where)s): %(why)s")
                % {**where, "why": error.message}
            ) from None
        if kind == Event.Kind.DO:
            change = folded.changes[number]
            row["chain"], row["budget"] = change.chain, change.budget
        else:
            row["target"] = taken
        if kind == Event.Kind.UNDO:
            # An undo points at the undo below it on the redo stack.
            row["chain"] = folded.undone[-2][0] if len(folded.undone) > 1 else None
        rows.append(row)
    return rows, folded
