"""Export a campaign as a file and import it back; hostile files are refused whole."""

import copy
import json
import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from campaigns.commands import CommandError
from campaigns.models import Campaign, Event
from campaigns.transfer import export_campaign, import_campaign
from tests.factories import STEP, client_for, counts, make_campaign, step_data, tracker_id
from tests.journeys import upload


def export(client, campaign) -> bytes:
    response = client.get(f"/c/{campaign.pk}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response.content


def history_lines(client, campaign) -> list[str]:
    page = client.get(f"/c/{campaign.pk}/history/").content.decode()
    return re.findall(r'<li class="kind-\w+"><span class="text">(.*?)</span>', page)


def undo_bar(client, campaign) -> tuple[str, str]:
    """What the bottom bar offers to undo and to redo."""
    page = client.get(f"/c/{campaign.pk}/").content.decode()
    what = re.search(
        r'class="what">(?:<summary><span class="clamp"><bdi>)?(.*?)</(?:span|bdi)>', page
    ).group(1)
    redo = re.search(
        r'action="/c/\d+/redo/".*?<button [^>]*?(disabled\s+)?title="([^"]*)"',
        page,
        re.DOTALL,
    )
    return what, ("disabled " if redo.group(1) else "") + redo.group(2)


@pytest.fixture
def played(campaign, owner, player):
    """A campaign with a history: changes by two people, undos, a redo, one change to redo."""
    doom = tracker_id(campaign, "Doom")
    stickers = campaign.state["trackers"][1]
    banished = tracker_id(campaign, "Banished")
    notes = tracker_id(campaign, "Notes")
    results = tracker_id(campaign, "Results")
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 3}, owner)
    campaign.apply(
        "checklist.check",
        {"tracker": stickers["id"], "item": stickers["items"][1]["id"], "done": True},
        player,
    )
    campaign.apply("list.add", {"tracker": banished, "text": "Goblin", "reason": "mean"}, player)
    campaign.apply("notes.add", {"tracker": notes, "text": "Ünïcode ✓ 日本"}, owner)
    campaign.apply(
        "results.add",
        {"tracker": results, "date": "2024-05-01", "result": "win", "score": 7, "notes": ""},
        owner,
    )
    campaign.apply("tracker.add", {"kind": "counter", "name": "Gold", "minimum": 0}, owner)
    campaign.undo(owner)
    campaign.redo(player)
    campaign.apply("counter.set", {"tracker": doom, "value": 9}, owner)
    campaign.undo(owner)
    campaign.refresh_from_db()
    return campaign


# The round trip


def test_export_then_import_gives_the_same_campaign(played, owner, stranger):
    raw = export(client_for(owner), played)
    document = json.loads(raw)
    assert document["format"] == "companion-campaign"
    assert document["format_version"] == 2
    assert document["version"] == played.version == 10
    assert [e["seq"] for e in document["events"]] == list(range(1, 11))

    importer = client_for(stranger)
    response = upload(importer, raw)
    assert response.status_code == 302
    copy_ = Campaign.objects.exclude(pk=played.pk).get()
    assert response.url == f"/c/{copy_.pk}/"
    assert "Imported “Our campaign”." in importer.get(response.url).content.decode()
    assert copy_.state == played.state
    assert copy_.version == played.version
    assert copy_.name == played.name
    assert copy_.replay() == copy_.state
    assert [(m.user, m.role) for m in copy_.memberships.all()] == [(stranger, "owner")]

    owner_client = client_for(owner)
    assert history_lines(importer, copy_) == history_lines(owner_client, played)
    assert undo_bar(importer, copy_) == undo_bar(owner_client, played)
    assert copy_.undo_top.seq == played.undo_top.seq
    assert copy_.redo_top.seq == played.redo_top.seq

    # Redo and undo act on the copy exactly as on the original.
    for campaign, user in ((played, owner), (copy_, stranger)):
        campaign.redo(user)
    assert copy_.state == played.state
    for campaign, user in ((played, owner), (copy_, stranger)):
        campaign.undo(user)
        campaign.undo(user)
    assert copy_.state == played.state
    assert copy_.version == played.version


def test_a_member_of_the_original_does_not_become_a_member_of_the_copy(played, owner, player):
    upload(client_for(owner), export(client_for(owner), played))
    copy_ = Campaign.objects.exclude(pk=played.pk).get()
    assert list(copy_.memberships.values_list("user__username", "role")) == [("olive", "owner")]
    assert client_for(player).get(f"/c/{copy_.pk}/").status_code == 404


def test_an_exported_archived_campaign_imports_archived(campaign, owner):
    campaign.apply("campaign.archive", {"archived": True}, owner)
    upload(client_for(owner), export(client_for(owner), campaign))
    copy_ = Campaign.objects.exclude(pk=campaign.pk).get()
    assert copy_.archived is True


def test_an_empty_campaign_round_trips(campaign, owner):
    response = upload(client_for(owner), export(client_for(owner), campaign))
    assert response.status_code == 302
    copy_ = Campaign.objects.exclude(pk=campaign.pk).get()
    assert (copy_.state, copy_.version, copy_.undo_top, copy_.redo_top) == (
        campaign.state,
        0,
        None,
        None,
    )


def test_undoing_a_rename_in_an_imported_copy_gives_the_old_name_back(campaign, owner):
    campaign.apply("campaign.rename", {"name": "Second act"}, owner)
    upload(client_for(owner), export(client_for(owner), campaign))
    copy_ = Campaign.objects.exclude(pk=campaign.pk).get()
    assert copy_.name == "Second act"
    campaign.undo(owner)
    copy_.undo(owner)
    assert campaign.name == "Our campaign"
    assert copy_.name == campaign.name


def test_an_imported_history_keeps_who_and_when(played, owner):
    raw = export(client_for(owner), played)
    upload(client_for(owner), raw)
    copy_ = Campaign.objects.exclude(pk=played.pk).get()
    page = client_for(owner).get(f"/c/{copy_.pk}/history/").content.decode()
    assert "someone who left" not in page
    assert "· Pat ·" in page
    first = copy_.events.get(seq=1)
    assert first.created == played.events.get(seq=1).created


def undo_all(campaign, user) -> list:
    """Undo until there is nothing left, noting the state after each undo."""
    states = []
    while True:
        try:
            campaign.undo(user)
        except CommandError:
            return states
        states.append(campaign.state)


@hypothesis_settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=12))
def test_any_history_round_trips_and_undoes_the_same(owner, stranger, steps):
    original = make_campaign(owner)
    for step in steps:
        try:
            if step[0] in ("undo", "redo"):
                getattr(original, step[0])(owner)
            else:
                original.apply(*step_data(original, step), owner)
        except CommandError:
            pass
    original.refresh_from_db()
    document = json.loads(json.dumps(export_campaign(original)))
    imported = import_campaign(json.dumps(document).encode(), stranger)
    assert imported.state == original.state
    assert imported.version == original.version
    assert getattr(imported.undo_top, "seq", None) == getattr(original.undo_top, "seq", None)
    assert getattr(imported.redo_top, "seq", None) == getattr(original.redo_top, "seq", None)

    def events(document):
        return [(e["seq"], e["kind"], e["action"], e["data"], e["target"]) for e in document]

    assert events(export_campaign(imported)["events"]) == events(document["events"])
    assert undo_all(imported, stranger) == undo_all(original, owner)


# Hostile files: each refused with a message, nothing created, never a 500


def broken(document: dict, change) -> bytes:
    document = copy.deepcopy(document)
    change(document)
    return json.dumps(document).encode()


def nested(depth: int) -> list:
    """A list in a list… `depth` levels deep (built without recursion)."""
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def set_event(seq: int, **fields):
    def change(document):
        document["events"][seq - 1].update(fields)

    return change


def set_data(seq: int, **fields):
    def change(document):
        document["events"][seq - 1]["data"].update(fields)

    return change


def assign(key, value):
    def change(document):
        document[key] = value

    return change


@pytest.fixture
def good(campaign, owner, player):
    """An exported file of a small campaign: two changes to Doom, a check, an undo and a redo."""
    doom = tracker_id(campaign, "Doom")
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 2}, owner)  # 1
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, player)  # 2
    campaign.apply("checklist.check", {"tracker": 2, "item": 3, "done": True}, owner)  # 3
    campaign.undo(owner)  # 4: undoes 3
    campaign.redo(owner)  # 5: redoes 3
    campaign.refresh_from_db()
    return json.loads(export(client_for(owner), campaign))


def swap_first_two(document):
    events = document["events"]
    events[0], events[1] = events[1], events[0]


def drop_event(seq):
    def change(document):
        del document["events"][seq - 1]
        document["version"] -= 1  # (else refused for its version, before its numbering)

    return change


HOSTILE = {
    "not-json": (lambda g: b"this is not json", "The file is not JSON, or it was cut short."),
    "not-utf8": (lambda g: b'{"format": "\xff\xfe"}', "The file is not text in UTF-8."),
    "truncated": (
        lambda g: json.dumps(g).encode()[: len(json.dumps(g)) // 2],
        "The file is not JSON, or it was cut short.",
    ),
    "empty": (lambda g: b"", None),
    "json-array": (lambda g: json.dumps([g]).encode(), "The file is not a Companion campaign."),
    "json-string": (lambda g: b'"companion-campaign"', "The file is not a Companion campaign."),
    "wrong-format": (
        lambda g: broken(g, assign("format", "other-app")),
        "The file is not a Companion campaign.",
    ),
    # A file from a later release than this one, or of no version this site made.
    "format-version-3": (
        lambda g: broken(g, assign("format_version", 3)),
        "The file&#x27;s format version is not one this site reads.",
    ),
    "format-version-0": (
        lambda g: broken(g, assign("format_version", 0)),
        "The file&#x27;s format version is not one this site reads.",
    ),
    "format-version-true": (
        lambda g: broken(g, assign("format_version", True)),
        "The file&#x27;s format version is not one this site reads.",
    ),
    "format-version-string": (
        lambda g: broken(g, assign("format_version", "2")),
        "The file&#x27;s format version is not one this site reads.",
    ),
    "unknown-game": (
        lambda g: broken(g, assign("game", "chess")),
        "The file is for a game this site does not know.",
    ),
    "game-not-a-string": (
        lambda g: broken(g, assign("game", ["any"])),
        "The file is for a game this site does not know.",
    ),
    "over-5-mb": (
        lambda g: json.dumps(g).encode() + b" " * (5 * 1024 * 1024),
        "The file is larger than a campaign can be (5 MB).",
    ),
    "deeply-nested": (lambda g: b"[" * 100_000, "The file is nested too deeply to be a campaign."),
    "deeply-nested-inside": (
        lambda g: b'{"format": "companion-campaign", "setup": ' + b"[" * 100_000,
        "The file is nested too deeply to be a campaign.",
    ),
    # Valid JSON that Python reads, nested deeper than a database stores (a 500 on SQLite once).
    "setup-nested-thousands-deep": (
        lambda g: broken(g, lambda d: d["setup"].__setitem__("deep", nested(3000))),
        "The file is nested too deeply to be a campaign.",
    ),
    "event-nested-thousands-deep": (
        lambda g: broken(g, lambda d: d["events"][0]["data"].__setitem__("deep", nested(3000))),
        "The file is nested too deeply to be a campaign.",
    ),
    "events-out-of-order": (
        lambda g: broken(g, swap_first_two),
        "The events are not numbered 1, 2, 3… (event 1).",
    ),
    "event-missing": (
        lambda g: broken(g, drop_event(2)),
        "The events are not numbered 1, 2, 3… (event 2).",
    ),
    "events-not-a-list": (
        lambda g: broken(g, assign("events", {"1": {}})),
        "The file has no set-up or no list of events.",
    ),
    "event-not-an-object": (
        lambda g: broken(g, lambda d: d["events"].__setitem__(0, [1, "do"])),
        "The events are not numbered 1, 2, 3… (event 1).",
    ),
    "unknown-action": (
        lambda g: broken(g, set_event(1, action="counter.explode")),
        "An event is not one this game knows (event 1).",
    ),
    "unknown-kind": (
        lambda g: broken(g, set_event(1, kind="redo-twice")),
        "An event is not one this game knows (event 1).",
    ),
    "data-not-an-object": (
        lambda g: broken(g, set_event(1, data=[1, 2])),
        "An event is not one this game knows (event 1).",
    ),
    "adjust-beyond-max": (
        lambda g: broken(g, set_data(1, delta=20)),
        "The events do not fit together (event 1): Doom cannot go above 12.",
    ),
    "tracker-that-does-not-exist": (
        lambda g: broken(g, set_data(2, tracker=99)),
        "The events do not fit together (event 2): That tracker is not in this campaign any more.",
    ),
    "string-for-an-int": (
        lambda g: broken(g, set_data(1, delta="2")),
        "The events do not fit together (event 1): “delta” must be a whole number.",
    ),
    "bool-for-an-int": (
        lambda g: broken(g, set_data(1, delta=True)),
        "The events do not fit together (event 1): “delta” must be a whole number.",
    ),
    "string-for-a-bool": (
        lambda g: broken(g, set_data(3, done="yes")),
        "The events do not fit together (event 3): “done” must be true or false.",
    ),
    "undo-of-the-wrong-change": (
        lambda g: broken(g, set_event(4, target=2)),
        "An undo names the wrong change (event 4).",
    ),
    "redo-of-the-wrong-change": (
        lambda g: broken(g, set_event(5, target=1)),
        "A redo names the wrong change (event 5).",
    ),
    "state-does-not-match": (
        lambda g: broken(g, lambda d: d["state"]["trackers"][0].update(value=11)),
        "The file&#x27;s state does not match its events.",
    ),
    "state-missing": (
        lambda g: broken(g, lambda d: d.pop("state")),
        "The file&#x27;s state does not match its events.",
    ),
    "setup-with-an-unknown-kind": (
        lambda g: broken(g, lambda d: d["setup"]["trackers"].append({"kind": "dial", "name": "D"})),
        "The campaign&#x27;s set-up does not fit the game.",
    ),
    "setup-counter-low-above-high": (
        lambda g: broken(
            g,
            lambda d: d["setup"]["trackers"].append(
                {"kind": "counter", "name": "Life", "minimum": 10, "maximum": 0}
            ),
        ),
        "The campaign&#x27;s set-up does not fit the game.",
    ),
    "setup-tracker-not-an-object": (
        lambda g: broken(g, lambda d: d["setup"]["trackers"].append("Doom 0 12")),
        "The campaign&#x27;s set-up does not fit the game.",
    ),
    "setup-trackers-not-a-list": (
        lambda g: broken(g, lambda d: d["setup"].update(trackers={"kind": "list"})),
        "The campaign&#x27;s set-up does not fit the game.",
    ),
    "setup-kind-unhashable": (
        lambda g: broken(g, lambda d: d["setup"]["trackers"].append({"kind": [], "name": "x"})),
        "The campaign&#x27;s set-up does not fit the game.",
    ),
    "setup-not-an-object": (
        lambda g: broken(g, assign("setup", "Doom 0 12")),
        "The file has no set-up or no list of events.",
    ),
    "huge-name": (
        lambda g: broken(g, assign("name", "x" * 100_000)),
        "The campaign&#x27;s name is missing or too long.",
    ),
    "blank-name": (
        lambda g: broken(g, assign("name", "   ")),
        "The campaign&#x27;s name is missing or too long.",
    ),
    "name-not-a-string": (
        lambda g: broken(g, assign("name", {"en": "x"})),
        "The campaign&#x27;s name is missing or too long.",
    ),
    "huge-number": (
        lambda g: json.dumps(g).replace('"delta": 2', '"delta": ' + "9" * 5000).encode(),
        None,
    ),
    # JSON Python reads but no campaign holds: odd numbers, lone surrogates, times out of range
    "nan": (lambda g: broken(g, set_data(1, extra=float("nan"))), "NaN"),
    "infinity": (lambda g: broken(g, set_data(1, extra=float("inf"))), "Infinity"),
    "minus-infinity": (lambda g: broken(g, assign("setup", {"x": float("-inf")})), "Infinity"),
    "1e999": (
        lambda g: json.dumps(g).replace('"delta": 2', '"delta": 2, "x": 1e999', 1).encode(),
        "Infinity",
    ),
    "lone-surrogate-in-name": (
        lambda g: json.dumps(g).replace('"Our campaign"', '"Our \\ud800 campaign"').encode(),
        "lone surrogate",
    ),
    "lone-surrogate-in-data": (
        lambda g: broken(g, set_data(1, note="a\ud800b")),
        "lone surrogate",
    ),
    "lone-low-surrogate-in-actor": (
        lambda g: broken(g, set_event(2, actor="\udc00")),
        "lone surrogate",
    ),
    "time-before-year-one-in-utc": (
        lambda g: broken(g, set_event(1, created="0001-01-01T00:00:00+23:59")),
        "An event has no valid time (event 1).",
    ),
    "time-after-9999-in-utc": (
        lambda g: broken(g, set_event(1, created="9999-12-31T23:59:59-23:59")),
        "An event has no valid time (event 1).",
    ),
    # The README: `version` is the number of events; a file where it is not is refused whole.
    "version-not-the-number-of-events": (
        lambda g: broken(g, assign("version", 4)),
        "The file&#x27;s version is not its number of events.",
    ),
    "version-missing": (
        lambda g: broken(g, lambda d: d.pop("version")),
        "The file&#x27;s version is not its number of events.",
    ),
    "version-as-text": (
        lambda g: broken(g, assign("version", "5")),
        "The file&#x27;s version is not its number of events.",
    ),
    "time-in-year-9999": (
        lambda g: broken(g, set_event(1, created="9999-12-31T23:00:00+00:00")),
        "An event has no valid time (event 1).",
    ),
}


@pytest.mark.parametrize("hostile", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_file_is_refused_and_creates_nothing(good, stranger, hostile):
    make, message = HOSTILE[hostile]
    raw = make(good)
    before = counts()
    response = upload(client_for(stranger), raw)
    assert response.status_code == 422
    body = response.content.decode()
    assert 'class="errorlist' in body
    if message is not None:
        assert message in body
    assert counts() == before


def test_the_good_file_itself_is_accepted(good, stranger):
    # The hostile files above are this file with one thing changed.
    before = counts()
    response = upload(client_for(stranger), json.dumps(good).encode())
    assert response.status_code == 302
    assert counts()[0] == before[0] + 1


def test_a_surrogate_pair_is_one_character_and_imports(good, stranger):
    raw = json.dumps(good).replace('"Our campaign"', '"Our \\ud83c\\udfb2 campaign"').encode()
    response = upload(client_for(stranger), raw)
    assert response.status_code == 302
    assert Campaign.objects.filter(name="Our 🎲 campaign").exists()


@pytest.mark.parametrize("action", [["counter.adjust"], {"a": 1}], ids=["list", "object"])
def test_an_event_whose_action_is_not_a_string_is_refused(good, stranger, action):
    raw = broken(good, set_event(1, action=action))
    before = counts()
    response = upload(client_for(stranger), raw)
    assert response.status_code == 422
    assert "An event is not one this game knows (event 1)." in response.content.decode()
    assert counts() == before


def test_an_undone_change_that_does_not_fit_is_refused(campaign, owner, stranger):
    doom = tracker_id(campaign, "Doom")
    campaign.apply("counter.adjust", {"tracker": doom, "delta": 2}, owner)
    campaign.undo(owner)
    document = json.loads(export(client_for(owner), campaign))
    raw = broken(document, set_data(1, delta=50, to=52))
    before = counts()
    response = upload(client_for(stranger), raw)
    assert response.status_code == 422
    assert counts() == before


def test_the_import_page_without_a_file_asks_for_one(stranger):
    client = client_for(stranger)
    assert client.get("/import/").status_code == 200
    # A browser's form always sends its CSRF token, even without a file.
    response = client.post("/import/", {"csrfmiddlewaretoken": "x"})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    assert Campaign.objects.count() == 0


def test_export_is_for_members_only(campaign, stranger):
    assert client_for(stranger).get(f"/c/{campaign.pk}/export.json").status_code == 404
    response = Client().get(f"/c/{campaign.pk}/export.json")
    assert response.status_code == 302
    assert response.url.startswith("/login/")


def test_the_exported_file_is_named_after_the_campaign(played, owner):
    response = client_for(owner).get(f"/c/{played.pk}/export.json")
    assert response["Content-Disposition"] == 'attachment; filename="our-campaign-10.json"'


def test_a_file_with_a_nul_character_is_refused(campaign, owner):
    """PostgreSQL cannot store NUL in JSON: the import says so instead of failing."""
    client = client_for(owner)
    raw = export(client, campaign).replace(b'"Our campaign"', b'"Our\\u0000campaign"', 1)
    before = (Campaign.objects.count(), Event.objects.count())
    response = upload(client, raw)
    assert response.status_code == 422
    assert "NUL" in response.content.decode()
    assert (Campaign.objects.count(), Event.objects.count()) == before
