"""Arkham properties: replaying the events gives the cached state after any sequence of changes
with undo and redo; every token in the bag can come out of a draw and a sealed one never does;
no malformed request or hostile payload breaks anything."""

import copy
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.commands import CommandError
from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import data, investigators, scenario, trauma
from campaigns.games.arkham.bag import drawable
from campaigns.games.arkham.draw import apply_done, apply_record
from campaigns.games.arkham.reveals import wants_another
from campaigns.games.arkham.sealing import apply_seal
from campaigns.games.base import Viewing
from campaigns.models import Campaign
from tests.factories import play_and_check_replay
from tests.games.arkham.helpers import Picks, index_of, make_arkham

ARKHAM = GAMES["arkham"]
# The game's own commands (the shared trackers' and the campaign's are tested where they live).
ARKHAM_OWN = sorted(
    name
    for name, command in ARKHAM.commands.items()
    if command.apply.__module__.startswith("campaigns.games.arkham")
)


TOKEN = st.sampled_from(chaos.TOKENS)
SMALL = st.integers(min_value=-3, max_value=4)
PICK = st.integers(min_value=0, max_value=10_000)

STEP = st.one_of(
    st.tuples(st.just("investigator.add"), st.integers(1, 9), st.integers(1, 9), st.booleans()),
    st.tuples(st.just("investigator.trauma"), PICK, st.sampled_from(["physical", "mental"]), SMALL),
    st.tuples(st.just("investigator.xp"), PICK, SMALL),
    st.tuples(st.just("investigator.buy"), PICK, st.integers(0, 5)),
    st.tuples(st.just("investigator.mark"), PICK, st.sampled_from(trauma.STATUSES)),
    st.tuples(st.just("investigator.item"), PICK, st.sampled_from(investigators.ITEM_KINDS)),
    st.tuples(st.just("investigator.elder"), PICK, SMALL, st.booleans()),
    st.tuples(st.just("bag.draw"), PICK),
    st.tuples(st.just("bag.another"), PICK),
    st.tuples(st.just("bag.done")),
    st.tuples(st.just("bag.record"), TOKEN, st.sampled_from(["new", "same"])),
    st.tuples(st.just("bag.change"), TOKEN, st.integers(-2, 3)),
    st.tuples(st.just("bag.set"), TOKEN, st.integers(0, 11)),
    st.tuples(st.just("bag.seal"), TOKEN),
    st.tuples(st.just("bag.release"), TOKEN),
    st.tuples(st.just("bag.active"), PICK),
    st.tuples(st.just("scenario.start"), st.sampled_from(["The Gathering", "Blood on the Altar"])),
    st.tuples(
        st.just("scenario.effects"),
        st.lists(st.sampled_from(["modifier", "again", "fail"]), min_size=4, max_size=4),
        SMALL,
    ),
    st.tuples(
        st.just("scenario.record"),
        st.integers(0, 5),
        st.integers(-1, 3),
        st.integers(0, 3),
        st.sampled_from(["", "killed", "insane"]),
        TOKEN,
        st.integers(-1, 2),
    ),
    st.tuples(st.just("round.next"), st.booleans()),
    st.tuples(st.just("round.doom"), SMALL),
    st.tuples(st.just("round.threshold"), st.integers(1, 4)),
    st.tuples(st.just("notes.add"), st.text(min_size=1, max_size=8)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
)


def pick_investigator(state, n):
    people = state["investigators"]
    return people[n % len(people)]["id"] if people and n % 7 else 999


def step_data(campaign, step):
    state = campaign.state
    kind = step[0]
    if kind == "investigator.add":
        data_ = {"name": f"Investigator {step[1]}", "player": "", "health": step[1]}
        data_.update(sanity=step[2], replaces=None)
        dead = [i for i in state["investigators"] if i["status"] != "active"]
        if step[3] and dead:
            data_["replaces"] = dead[0]["id"]
        return kind, data_
    if kind == "investigator.trauma":
        who = pick_investigator(state, step[1])
        return kind, {"investigator": who, "kind": step[2], "delta": step[3]}
    if kind == "investigator.xp":
        return kind, {"investigator": pick_investigator(state, step[1]), "delta": step[2]}
    if kind == "investigator.buy":
        who = pick_investigator(state, step[1])
        return kind, {"investigator": who, "card": "Card", "level": step[2]}
    if kind == "investigator.mark":
        return kind, {"investigator": pick_investigator(state, step[1]), "status": step[2]}
    if kind == "investigator.item":
        who = pick_investigator(state, step[1])
        return kind, {"investigator": who, "kind": step[2], "text": "Story card"}
    if kind == "investigator.elder":
        who = pick_investigator(state, step[1])
        return kind, {"investigator": who, "modifier": step[2], "auto_succeed": step[3]}
    if kind in ("bag.draw", "bag.another", "bag.done"):
        return kind, {}
    if kind == "bag.record":
        return kind, {"token": step[1], "into": step[2]}
    if kind == "bag.change":
        return kind, {"token": step[1], "delta": step[2]}
    if kind == "bag.set":
        return kind, {"token": step[1], "count": step[2]}
    if kind in ("bag.seal", "bag.release"):
        return kind, {"token": step[1]}
    if kind == "bag.active":
        return kind, {"investigator": pick_investigator(state, step[1])}
    if kind == "scenario.start":
        return kind, {"name": step[1]}
    if kind == "scenario.effects":
        data_ = {}
        for symbol, mode in zip(data.SCENARIO_SYMBOLS, step[1], strict=True):
            data_[symbol], data_[f"{symbol}_value"] = mode, step[2]
        return kind, data_
    if kind == "scenario.record":
        data_ = {"scenario": "The Gathering", "resolution": "R1"}
        for person in state["investigators"]:
            if person["status"] == "active":
                ident = person["id"]
                data_.update({f"xp-{ident}": step[1], f"physical-{ident}": step[2]})
                data_.update({f"mental-{ident}": step[3], f"fate-{ident}": step[4]})
        if step[5] not in data.POOL_TOKENS and step[6]:
            data_.update(bag_op_1="add" if step[6] > 0 else "remove", bag_token_1=step[5])
            data_["bag_count_1"] = abs(step[6])
        notes = state["trackers"][0]["id"]
        data_[f"entry-{notes}"] = "A line\nAnother"
        return kind, data_
    if kind == "round.next":
        return kind, {"from": state["round"]["step"], "loop": step[1]}
    if kind == "round.doom":
        return kind, {"delta": step[1]}
    if kind == "round.threshold":
        return kind, {"threshold": step[1]}
    return "notes.add", {"tracker": state["trackers"][0]["id"], "text": step[1]}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(STEP, PICK), min_size=6, max_size=30))
def test_replay_equals_the_cached_state_after_any_sequence(owner, steps):
    campaign = make_arkham(owner, "eoe", "hard")  # frost in the bag from the start

    def command_for(campaign, step_and_seed):
        step, seed = step_and_seed
        action, data_ = step_data(campaign, step)
        form = ARKHAM.commands[action].form(data_)
        if not form.is_valid():  # the view would refuse it before anything happens
            return None
        return action, form.cleaned_data, random.Random(seed)

    steps = [(step, seed) if step[0] not in ("undo", "redo") else step for step, seed in steps]
    fresh = play_and_check_replay(campaign, owner, steps, command_for)
    bag, sealed = fresh.state["bag"], fresh.state["sealed"]
    for token in data.TOKEN_LIMITS:  # never more than the game provides, sealed ones counted
        assert bag.get(token, 0) + sealed.get(token, 0) <= data.TOKEN_LIMITS[token]
    assert all(n > 0 for n in bag.values()) and all(n > 0 for n in sealed.values())


# Draws, without the database: a state, a command's resolve and apply.

BAGS = st.dictionaries(TOKEN, st.integers(min_value=0, max_value=3), min_size=1).filter(
    lambda bag: sum(bag.values()) > 0
)


def bag_state(bag, sealed_tokens):
    state = ARKHAM.initial_state({"campaign": "custom", "difficulty": "standard"})
    state["bag"] = {t: n for t, n in bag.items() if n}
    for token in sealed_tokens:
        if state["bag"].get(token):
            apply_seal(state, {"token": token})
    return state


def draw(state, rng):
    work = copy.deepcopy(state)
    command = ARKHAM.commands["bag.draw"]
    payload = command.resolve(work, {}, rng)
    command.apply(work, payload)
    return payload["tokens"], work


@settings(max_examples=150, deadline=None)
@given(bag=BAGS, sealed=st.sets(TOKEN, max_size=4))
def test_every_token_in_the_bag_can_come_out_and_a_sealed_one_never_does(bag, sealed):
    state = bag_state(bag, sealed)
    in_bag = drawable(state)
    if not in_bag:
        with pytest.raises(CommandError, match="The bag is empty"):
            draw(state, random.Random(0))
        return
    seen = set()
    size = sum(in_bag.values())
    for first in range(size):
        tokens, after = draw(state, Picks(first, *[0] * 60))
        seen.add(tokens[0])
        # Nothing comes out more often than it is in the bag: sealed copies stay out.
        for token in set(tokens):
            assert tokens.count(token) <= in_bag.get(token, 0)
        test = after["draws"][-1]
        assert test["open"] and not wants_another(after, test)
    assert seen == set(in_bag)
    assert seen == {t for t, n in state["bag"].items() if n}
    for token, count in state["sealed"].items():
        if not state["bag"].get(token):
            assert token not in seen, f"{count} sealed {token} came out"


@settings(max_examples=60, deadline=None)
@given(bag=BAGS, seed=st.integers(0, 2**32))
def test_a_random_draw_chains_exactly_as_the_rules_say(bag, seed):
    state = bag_state(bag, set())
    tokens, after = draw(state, random.Random(seed))
    test = after["draws"][-1]
    for entry in test["tokens"][:-1]:
        assert entry["again"] and not (entry["token"] == "frost" and entry.get("second_frost"))
    frosts = tokens.count("frost")
    assert test["auto_fail"] == (frosts >= 2 or "auto_fail" in tokens)
    apply_done(after, {})
    for token in data.POOL_TOKENS:
        assert after["bag"].get(token, 0) == bag.get(token, 0) - tokens.count(token)


# Malformed requests and hostile payloads

JUNK = [
    {
        **{"token": "x" * 500, "into": "sideways", "delta": "9" * 40, "count": "-"},
        **{"investigator": "abc", "kind": "spiritual", "status": "asleep", "supply": "jetpack"},
        **{"from": "9.9", "loop": "maybe", "threshold": "0", "agenda": "500", "tracker": "x"},
    },
    {
        **{"investigator": "99999999", "delta": "1", "level": "9", "modifier": "99", "item": "77"},
        **{"xp-1": "x", "fate-99": "dead", "entry-5": "y" * 5000, "count-999999999": "5"},
        **{"skull": "explode", "skull_value": "1e9", "tracker": "999", "value": "9" * 30},
    },
    {"scenario": "S", "xp-999": "1", "physical-1": "-5", "bag_token_1": "bless", "name": "\x00"},
]


@pytest.mark.sweep
@pytest.mark.parametrize("junk", JUNK, ids=range(len(JUNK)))
def test_no_malformed_request_returns_500(owner_client, owner, junk):
    campaign = make_arkham(owner)
    owner_client.post(
        f"/c/{campaign.pk}/do/investigator.add/", {"name": "Roland", "health": 9, "sanity": 5}
    )
    for number, action in enumerate(ARKHAM.commands):
        htmx = {"HTTP_HX_REQUEST": "true"} if number % 2 else {}
        response = owner_client.post(
            f"/c/{campaign.pk}/do/{action}/", {**junk, "page": "bag", "region": "x"}, **htmx
        )
        assert response.status_code in (200, 302, 403, 409, 422), (action, junk)
    for path in ("/", "/p/bag/", "/p/round/", "/p/bag/?skill=%00&difficulty=-9", "/history/"):
        assert owner_client.get(f"/c/{campaign.pk}{path}").status_code == 200


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 1_000) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children)
    ),
    max_leaves=8,
)
KEYS = [
    "token",
    "tokens",
    "into",
    "delta",
    "count",
    "investigator",
    "kind",
    "status",
    "level",
    "card",
    "text",
    "item",
    "modifier",
    "auto_succeed",
    "supply",
    "name",
    "player",
    "health",
    "sanity",
    "replaces",
    "scenario",
    "resolution",
    "investigators",
    "bag",
    "entries",
    "counters",
    "effects",
    "from",
    "loop",
    "threshold",
    "agenda",
]


def played_state():
    state = ARKHAM.initial_state({"campaign": "tfa", "difficulty": "standard"})
    investigators.apply_add_investigator(
        state, {"name": "Ursula", "player": "", "health": 7, "sanity": 7, "replaces": None}
    )
    scenario.apply_start(state, {"name": "The Untamed Wilds"})
    who = state["investigators"][0]["id"]
    apply_record(state, {"token": "0", "into": "new", "investigator": who})
    return state


@settings(max_examples=200, deadline=None)
@given(
    action=st.sampled_from(ARKHAM_OWN),
    payload=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6),
)
def test_a_hostile_payload_is_refused_with_a_message_or_fits(action, payload):
    state = played_state()
    try:
        ARKHAM.commands[action].apply(state, payload)
    except CommandError as error:
        assert error.message
    else:
        json.dumps(state)  # whatever went in is still a plain JSON state
        assert ARKHAM.context(None, state, Viewing())["ark"]["investigators"] is not None


# Export and import


def test_an_arkham_campaign_round_trips_through_export_and_import(owner_client, owner, stranger):
    campaign = make_arkham(owner, "ptc", "hard")
    owner_client.post(
        f"/c/{campaign.pk}/do/investigator.add/", {"name": "Roland", "health": 9, "sanity": 5}
    )
    for _ in range(3):
        campaign.apply("bag.draw", {}, owner, rng=random.Random(7))
    campaign.apply("bag.change", {"token": "bless", "delta": 3}, owner)
    campaign.apply("bag.draw", {}, owner, rng=random.Random(8))
    campaign.undo(owner)
    campaign.redo(owner)
    campaign.apply("scenario.start", {"name": "Curtain Call"}, owner)
    roland = campaign.state["investigators"][0]["id"]
    campaign.apply(
        "scenario.record",
        {"scenario": "Curtain Call", f"xp-{roland}": 4, f"mental-{roland}": 1},
        owner,
    )
    exported = owner_client.get(f"/c/{campaign.pk}/export.json").content
    from django.test import Client

    client = Client()
    client.force_login(stranger)
    upload = SimpleUploadedFile("c.json", exported, content_type="application/json")
    response = client.post("/import/", {"file": upload})
    assert response.status_code == 302
    copy_ = Campaign.objects.exclude(pk=campaign.pk).get(game="arkham")
    campaign.refresh_from_db()
    assert copy_.state == campaign.state
    assert copy_.replay() == copy_.state


def test_a_file_with_a_forged_draw_is_refused(owner_client, owner, stranger):
    campaign = make_arkham(owner)
    campaign.apply("bag.draw", {}, owner, rng=random.Random(3))
    document = json.loads(owner_client.get(f"/c/{campaign.pk}/export.json").content)
    document["events"][0]["data"]["tokens"] = ["bless"]  # not in the bag
    from django.test import Client

    client = Client()
    client.force_login(stranger)
    upload = SimpleUploadedFile("c.json", json.dumps(document).encode(), "application/json")
    response = client.post("/import/", {"file": upload})
    assert response.status_code == 422
    assert "no Bless token left in the bag" in response.content.decode()
    assert not Campaign.objects.filter(memberships__user=stranger).exists()


def test_index_of_helper_matches_the_engine():
    bag = {"0": 2, "skull": 1}
    assert chaos.draw(bag, Picks(index_of(bag, "skull"))) == "skull"
