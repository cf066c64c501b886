"""Make the golden campaign files: one campaign per game, played through the site's own forms
with a game in progress, exported as the site exports it.

    SQLITE_PATH=/tmp/golden.sqlite3 .venv/bin/python tests/data/make_golden.py [LABEL] [--out DIR]

It makes a fresh SQLite database at SQLITE_PATH (removed first: never point it at a real one),
migrates it, signs a user in with Django's test client, creates each campaign on its new-campaign
form, posts each change to the command's URL as the page's form does (undo and redo too), and
writes `<game>-<LABEL>.json` (LABEL: the checkout's short commit by default) into DIR (this
folder by default). The draws are seeded, so a run makes the same files at the same commit.

Run it at an older release to keep that release's files (tests/test_golden_files.py imports
every file here forever):

    git worktree add /work/old-RELEASE RELEASE
    cp tests/data/make_golden.py /work/old-RELEASE/
    cd /work/old-RELEASE && ln -s /path/to/.venv .venv
    SQLITE_PATH=/tmp/old.sqlite3 .venv/bin/python make_golden.py RELEASE --out /path/to/tests/data

Only forms and commands that every release since 0f9b593 has are used, so the same script runs
at HEAD and at 0f9b593; a change to a form's fields may need a step changed here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
State = dict[str, Any]
Step = tuple[str] | tuple[str, dict[str, Any] | Callable[[State], dict[str, Any]]]


def tracker(s: State, kind: str) -> dict[str, Any]:
    return next(t for t in s["trackers"] if t["kind"] == kind)


def first_item(s: State, kind: str, items: str = "items") -> Any:
    return tracker(s, kind)[items][0]["id"]


NEW: dict[str, dict[str, Any]] = {
    "any": {
        "name": "Gloomy",
        "counters": "Doom 0 12\nLife 0 30 30",
        "checklists": "Stickers: A, B",
        "lists": "Banished",
        "notes": "on",
        "results": "on",
    },
    "arkham": {"name": "Arkham nights", "campaign": "notz", "difficulty": "standard"},
    "aeonsend": {
        "name": "Gravehold",
        "player_count": "2",
        "p1_player": "Kim",
        "p1_character": "Adelheim",
        "p1_mat": "1",
        "p1_side": "front",
        "p1_colour": "red",
        "p2_player": "Lou",
        "p2_character": "Brama",
        "p2_mat": "2",
        "p2_side": "front",
        "p2_colour": "blue",
    },
    "eldritch": {
        "name": "Eldritch nights",
        "ancient_one": "Azathoth",
        "difficulty": "normal",
        "players": 2,
        "investigator_1": "Lily Chen",
        "investigator_2": "Silas Marsh",
    },
    "noir": {"name": "Thunder", "case": "case2", "clue_types": 6, "win_rule": "count"},
}


def investigator(s: State, n: int = 0) -> Any:
    return s["investigators"][n]["id"]


def last_test(s: State) -> Any:
    return s["draws"][-1]["id"]


def eh_who(s: State, n: int = 0) -> Any:
    return s["game"]["investigators"][n]["id"]


def eh_colour_left(s: State) -> dict[str, Any]:
    stage = next(st for st in s["game"]["deck"]["stages"] if sum(st.values()))
    return {"colour": next(c for c, n in stage.items() if n)}


def ae_settled(s: State) -> list[Step]:
    """The turn-order card that asks who takes the turn is answered before anything else."""
    pending = s["table"]["deck"].get("pending")
    return [("ae.choose", {"name": pending["options"][0]})] if pending else []


STEPS: dict[str, list[Step]] = {
    "any": [
        ("counter.adjust", lambda s: {"tracker": tracker(s, "counter")["id"], "delta": 1}),
        ("counter.set", lambda s: {"tracker": tracker(s, "counter")["id"], "value": 5}),
        (
            "checklist.check",
            lambda s: {
                "tracker": tracker(s, "checklist")["id"],
                "item": first_item(s, "checklist"),
                "done": "true",
            },
        ),
        ("checklist.add", lambda s: {"tracker": tracker(s, "checklist")["id"], "label": "C"}),
        (
            "list.add",
            lambda s: {"tracker": tracker(s, "list")["id"], "text": "Spark", "reason": "Used"},
        ),
        ("notes.add", lambda s: {"tracker": tracker(s, "notes")["id"], "text": "A clue"}),
        (
            "results.add",
            lambda s: {
                "tracker": tracker(s, "results")["id"],
                "date": "2026-11-30",
                "result": "win",
                "score": 3,
                "notes": "close",
            },
        ),
        ("counter.adjust", lambda s: {"tracker": tracker(s, "counter")["id"], "delta": -1}),
        ("undo",),
        ("redo",),
        ("undo",),
    ],
    "arkham": [
        (
            "investigator.add",
            {"name": "Roland Banks", "player": "Ann", "health": 9, "sanity": 5},
        ),
        (
            "investigator.add",
            {"name": "Daisy Walker", "player": "Bo", "health": 5, "sanity": 9},
        ),
        ("scenario.start", {"name": "The Gathering"}),
        ("bag.active", lambda s: {"investigator": investigator(s)}),
        ("bag.draw", {}),
        ("bag.another", lambda s: {"test": last_test(s)}),
        ("bag.done", lambda s: {"test": last_test(s)}),
        ("bag.draw", {"several": 2}),
        ("bag.choose", lambda s: {"test": last_test(s), "pick": 1}),
        ("round.doom", {"delta": 1}),
        ("round.next", lambda s: {"from": s["round"]["step"]}),
        (
            "investigator.trauma",
            lambda s: {"investigator": investigator(s), "kind": "physical", "delta": 1},
        ),
        ("scenario.record", {"scenario": "The Gathering", "resolution": "Resolution 1"}),
        ("investigator.xp", lambda s: {"investigator": investigator(s), "delta": 2}),
        ("scenario.start", {"name": "The Midnight Masks"}),
        ("bag.draw", {}),
        ("undo",),
        ("redo",),
    ],
    "aeonsend": [
        ("ae.chapter", {"to": "1-end"}),
        ("ae.sticker", {"letter": "F", "applied": "on", "timing": "4-end", "text": "Found it"}),
        ("ae.banish", {"text": "Spark", "game": 1, "reason": "Too good"}),
        ("ae.start", {"nemesis": "Rageborne", "nemesis_life": 60, "difficulty": "standard"}),
        ("ae.draw", {}),
        ("ae.life", {"who": "gravehold", "delta": 2, "sign": "damage"}),
        ("ae.draw", {}),
        ("undo",),
        ("redo",),
        ("ae.in_play", {"kind": "minion", "name": "Husk", "value": 2}),
    ],
    "eldritch": [
        ("eh.doom", {"step": "advance"}),
        ("eh.gate", {"colour": "blue", "delta": 1}),
        ("eh.omen", {}),
        ("eh.track", lambda s: {"investigator": eh_who(s), "track": "health", "delta": -1}),
        ("eh.draw", {}),
        ("eh.record", eh_colour_left),
        (
            "eh.log",
            {"date": "2026-11-30", "result": "loss", "reason": "doom", "rounds": 4},
        ),
        (
            "eh.start",
            {
                "ancient_one": "Cthulhu",
                "players": 2,
                "difficulty": "hard",
                "investigator_1": "Lily Chen",
                "investigator_2": "Mark Harrigan",
            },
        ),
        ("eh.doom", {"step": "advance"}),
        ("eh.mystery", {"current": "The Key", "tokens": 1}),
        ("eh.clues", lambda s: {"investigator": eh_who(s), "delta": 1}),
        ("eh.roll", lambda s: {"dice": 4, "bonus": "normal", "investigator": eh_who(s)}),
        ("eh.draw", {}),
        ("eh.phase", lambda s: {"phase": s["game"]["phase"]}),
        ("undo",),
        ("redo",),
    ],
    "noir": [
        ("noir.victim", {"column": 1, "name": "Ada"}),
        *[("noir.count", {"column": 1, "count": "cards", "delta": 1}) for _n in range(3)],
        ("noir.count", {"column": 1, "count": "hourglasses", "delta": 1}),
        ("noir.type", {"column": 1, "type": 1, "present": "true"}),
        ("noir.pile", {"pile": "madness", "delta": 1}),
        ("noir.play", {"column": 1, "type": 3, "hourglass": "on"}),
        *[("noir.end", {"step": step}) for step in "abcd"],
        ("noir.take", {}),
        ("undo",),
        ("redo",),
    ],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("label", nargs="?", help="the release in the file names")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--games", nargs="*", default=list(STEPS))
    args = parser.parse_args()
    database = os.environ.get("SQLITE_PATH")
    if not database or "DATABASE_URL" in os.environ:
        sys.exit("Set SQLITE_PATH to a throw-away file (it is removed first).")
    root = Path.cwd()
    label = (
        args.label
        or subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    Path(database).unlink(missing_ok=True)
    os.environ.setdefault("COMPANION_DATA_DIR", str(Path(database).parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
    sys.path.insert(0, str(root))

    import django

    django.setup()

    from django.conf import settings

    # The pages render with the plain static files, as in the tests (no collectstatic).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    import campaigns.models
    from campaigns.models import Campaign
    from campaigns.transfer import export_campaign

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(
        username="olive", password="a-long-password-1", first_name="Olive"
    )
    client = Client()
    client.force_login(user)
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games:
        campaigns.models._system_random = random.Random(f"golden-{game}")  # type: ignore[assignment]
        response = client.post(f"/new/{game}/", NEW[game])
        assert response.status_code == 302, response.content.decode()[-3000:]
        match = re.search(r"/c/(\d+)/", response["Location"])
        assert match, response["Location"]
        campaign = Campaign.objects.get(pk=int(match.group(1)))
        steps = list(STEPS[game])
        while steps:
            step = steps.pop(0)
            campaign.refresh_from_db()
            if game == "aeonsend" and (answer := ae_settled(campaign.state)):
                steps.insert(0, step)
                step = answer[0]
            if step[0] in ("undo", "redo"):
                url, data = f"/c/{campaign.pk}/{step[0]}/", {}
            else:
                post = step[1]  # type: ignore[misc]
                data = post(campaign.state) if callable(post) else post
                url = f"/c/{campaign.pk}/do/{step[0]}/"
            response = client.post(url, {**data, "version": campaign.version})
            assert response.status_code == 302, (game, step, response.content.decode()[-3000:])
        campaign.refresh_from_db()
        for page in (f"/c/{campaign.pk}/", f"/c/{campaign.pk}/history/"):
            assert client.get(page).status_code == 200, page
        path = args.out / f"{game}-{label}.json"
        document = export_campaign(campaign)
        path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
        print(f"{path}: {campaign.version} events")


if __name__ == "__main__":
    main()
