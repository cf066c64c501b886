"""Arkham Horror: The Card Game through the real views: creation, investigators, the campaign log,
the step after a scenario, the chaos bag (draws, chains, sealing, bless and curse), exact odds and
the round helper. Each change is posted the way the page's forms post it."""

import html
import random
import re
from fractions import Fraction

import pytest
from django.test import Client

from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import commands, data
from campaigns.games.arkham.context import percent
from campaigns.models import Campaign, Membership
from tests.conftest import HTMX, snapshot

NOTZ_STANDARD = {
    "+1": 1,
    "0": 2,
    "-1": 3,
    "-2": 2,
    "-3": 1,
    "-4": 1,
    "skull": 2,
    "cultist": 1,
    "tablet": 1,
    "auto_fail": 1,
    "elder_sign": 1,
}


def make_arkham(owner, campaign="notz", difficulty="standard", name="Arkham nights") -> Campaign:
    game = GAMES["arkham"]
    setup = {"campaign": campaign, "difficulty": difficulty}
    state = game.initial_state(setup)
    state.update(name=name, archived=False)
    made = Campaign.objects.create(
        game="arkham", name=name, setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=made, user=owner, role=Membership.Role.OWNER)
    return made


@pytest.fixture
def ark(owner, player):
    made = make_arkham(owner)
    Membership.objects.create(campaign=made, user=player, role=Membership.Role.PLAYER)
    return made


def post(client, campaign, action, htmx=False, **data):
    return client.post(f"/c/{campaign.pk}/do/{action}/", data, **(HTMX if htmx else {}))


def state(campaign) -> dict:
    campaign.refresh_from_db()
    return campaign.state


def text(response) -> str:
    """The response as the reader sees its words (entities such as &#x27; turned back)."""
    return html.unescape(response.content.decode())


def add_investigator(client, campaign, name="Roland Banks", health=9, sanity=5, **extra) -> int:
    response = post(
        client,
        campaign,
        "investigator.add",
        name=name,
        player=extra.pop("player", "Olive"),
        health=health,
        sanity=sanity,
        region="add-investigator",
        **extra,
    )
    assert response.status_code == 302, text(response)
    return state(campaign)["investigators"][-1]["id"]


class Picks(random.Random):
    """A stand-in for the rng that picks the given physical tokens in turn (0 = the first)."""

    def __init__(self, *picks: int):
        super().__init__(0)
        self.picks = list(picks)

    def randrange(self, n, *args):
        pick = self.picks.pop(0)
        assert 0 <= pick < n
        return pick


def index_of(bag: dict, token: str) -> int:
    """Where `token` sits among the physical tokens, in the order the engine counts them."""
    counts = chaos.validate_bag(bag)
    position = 0
    for name, count in counts.items():
        if name == token:
            return position
        position += count
    raise AssertionError(token)


# Creating a campaign


def test_creating_a_night_of_the_zealot_campaign_on_standard(owner_client):
    response = owner_client.get("/new/arkham/")
    page = text(response)
    for label in ("The Night of the Zealot", "The Drowned City", "Brethren of Ash", "Expert"):
        assert label in page
    response = owner_client.post(
        "/new/arkham/", {"name": "Zealot", "campaign": "notz", "difficulty": "standard"}
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Zealot")
    assert campaign.game == "arkham"
    assert campaign.state["bag"] == NOTZ_STANDARD
    page = text(owner_client.get(response.url))
    assert "Check the starting bag" in page
    assert "Cultists We Interrogated" in page
    assert "Campaign Notes" in page
    bag = text(owner_client.get(f"/c/{campaign.pk}/p/bag/"))
    assert "The starting bag of The Night of the Zealot on Standard" in bag
    assert "In the bag: 16 tokens" in bag


@pytest.mark.parametrize("campaign", [k for k in data.CAMPAIGNS if k != data.CUSTOM])
def test_every_campaign_starts_with_its_bag_and_log_at_every_difficulty(owner, campaign):
    for difficulty in data.DIFFICULTIES:
        made = make_arkham(owner, campaign, difficulty)
        assert made.state["bag"] == data.BAGS[campaign][difficulty]
        chaos.validate_bag(made.state["bag"])
        names = [t["name"] for t in made.state["trackers"]]
        assert names[0] == "Campaign Notes"
        assert names[1:] == [s[0] for s in data.CAMPAIGNS[campaign]["sections"]]


def test_the_path_to_carcosa_has_doubt_and_conviction_counters(owner):
    made = make_arkham(owner, "ptc", "expert")
    kinds = {t["name"]: t["kind"] for t in made.state["trackers"]}
    assert kinds["Doubt"] == kinds["Conviction"] == "counter"
    assert kinds["VIPs Interviewed"] == "notes"


def test_a_custom_campaign_starts_with_an_empty_bag(owner_client):
    owner_client.post("/new/arkham/", {"name": "Ours", "campaign": "custom", "difficulty": "hard"})
    campaign = Campaign.objects.get(name="Ours")
    assert campaign.state["bag"] == {}
    assert [t["name"] for t in campaign.state["trackers"]] == ["Campaign Notes"]


def test_a_caveat_is_shown_where_sources_disagree(owner_client, owner):
    made = make_arkham(owner, "fhv", "expert")
    page = text(owner_client.get(f"/c/{made.pk}/"))
    assert "Sources disagree" in page
    assert "without an auto-fail token" in page


@pytest.mark.parametrize(
    "setup",
    [
        {},
        {"campaign": "notz"},
        {"campaign": "nope", "difficulty": "standard"},
        {"campaign": "notz", "difficulty": "nightmare"},
        {"campaign": ["notz"], "difficulty": "easy"},
    ],
)
def test_a_setup_that_does_not_fit_is_refused(setup):
    from campaigns.commands import CommandError

    with pytest.raises(CommandError):
        GAMES["arkham"].initial_state(setup)


def test_the_starting_bag_can_be_corrected_before_play(owner_client, ark):
    response = post(owner_client, ark, "bag.change", token="-3", delta=1, region="bag-contents")
    assert response.status_code == 302
    response = post(
        owner_client, ark, "bag.change", True, token="+1", delta=-1, page="bag", region="b"
    )
    assert response.status_code == 200
    assert state(ark)["bag"]["-3"] == 2
    assert "+1" not in state(ark)["bag"]
    assert "In the bag: 16 tokens" in text(response)


# The chaos bag: draws


def test_a_draw_through_the_page_reveals_one_token_for_the_active_investigator(owner_client, ark):
    add_investigator(owner_client, ark)
    response = post(owner_client, ark, "bag.draw", True, page="bag", region="bag-actions")
    assert response.status_code == 200
    [test] = state(ark)["draws"]
    assert test["open"] and test["who"] == "Roland Banks"
    [entry] = test["tokens"]  # nothing in the Zealot's standard bag chains
    assert entry["token"] in NOTZ_STANDARD
    label = str(data.TOKEN_LABELS[entry["token"]])
    body = text(response)
    assert "data-buzz" in body and f'<span class="token-name">{label}</span>' in body
    assert state(ark)["stats"] == {"tests": 1, "tokens": {entry["token"]: 1}}
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert f"Drew {label} for Roland Banks" in history


def test_reveal_another_continues_the_test_without_replacement(owner, ark):
    s = state(ark)
    s["bag"] = {"0": 1, "-1": 1}
    Campaign.objects.filter(pk=ark.pk).update(state=s, initial_state=s)
    ark.refresh_from_db()
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    ark.apply("bag.another", {}, owner, rng=Picks(0))
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["0", "-1"]
    assert test["total"] == -1
    from campaigns.commands import CommandError

    with pytest.raises(CommandError, match="press Done"):
        ark.apply("bag.another", {}, owner, rng=Picks(0))
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"0": 1, "-1": 1}
    assert not state(ark)["draws"][-1]["open"]


def set_bag(campaign, bag, **extra):
    s = state(campaign)
    s["bag"] = bag
    s.update(extra)
    Campaign.objects.filter(pk=campaign.pk).update(state=s, initial_state=s)
    campaign.refresh_from_db()


def test_bless_reveals_another_in_the_same_command_and_goes_back_to_the_pool(owner, ark):
    set_bag(ark, {"-1": 1, "bless": 1})
    event = ark.apply("bag.draw", {}, owner, rng=Picks(1, 0))  # bless first, then −1
    assert event.data["tokens"] == ["bless", "-1"]
    test = state(ark)["draws"][-1]
    assert test["total"] == 1 and not test["auto_fail"]
    assert test["tokens"][1]["auto"] is True
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"-1": 1}  # the bless went back to the pool


def test_a_second_frost_in_one_test_is_an_automatic_failure(owner, ark):
    set_bag(ark, {"+1": 1, "frost": 2})
    ark.apply("bag.draw", {}, owner, rng=Picks(1, 1))  # frost, then the other frost
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["frost", "frost"]
    assert test["auto_fail"] is True
    ark.apply("bag.done", {}, owner)
    assert state(ark)["bag"] == {"+1": 1, "frost": 2}  # frost stays in the bag


def test_a_scenario_token_marked_reveal_another_chains(owner, ark):
    set_bag(ark, {"0": 1, "skull": 1}, scenario="The Gathering")
    ark.apply(
        "scenario.effects",
        {"skull": "again", "skull_value": -1, "cultist": "fail", "tablet": "", "elder_thing": ""},
        owner,
    )
    ark.apply("bag.draw", {}, owner, rng=Picks(1, 0))
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["skull", "0"]
    assert test["total"] == -1


def test_drawing_from_an_empty_bag_is_refused_and_changes_nothing(owner_client, owner):
    made = make_arkham(owner, "custom")
    before = snapshot(made)
    response = post(owner_client, made, "bag.draw", True, page="bag", region="bag-actions")
    assert response.status_code == 422
    assert "The bag is empty: put tokens in it before drawing." in text(response)
    assert 'role="alert"' in text(response)
    assert snapshot(made) == before


def test_a_sealed_token_never_comes_out(owner, ark):
    set_bag(ark, {"0": 1, "skull": 1})
    ark.apply("bag.seal", {"token": "skull"}, owner)
    assert state(ark)["bag"] == {"0": 1} and state(ark)["sealed"] == {"skull": 1}
    for _ in range(5):
        ark.apply("bag.draw", {}, owner, rng=random.Random())
        assert state(ark)["draws"][-1]["tokens"][0]["token"] == "0"
    ark.apply("bag.done", {}, owner)
    ark.apply("bag.release", {"token": "skull"}, owner)
    assert state(ark)["bag"] == {"0": 1, "skull": 1} and state(ark)["sealed"] == {}


def test_recording_a_physical_draw_counts_like_a_drawn_one(owner_client, ark):
    add_investigator(owner_client, ark)
    response = post(owner_client, ark, "bag.record", token="skull", into="new", page="bag")
    assert response.status_code == 302
    post(owner_client, ark, "bag.record", token="-2", into="same", page="bag")
    test = state(ark)["draws"][-1]
    assert [e["token"] for e in test["tokens"]] == ["skull", "-2"]
    assert test["physical"] and test["who"] == "Roland Banks"
    assert state(ark)["stats"] == {"tests": 1, "tokens": {"skull": 1, "-2": 1}}
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "physical bag" in page


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("bag.record", {"token": "tentacle", "into": "new"}, "no chaos token called “tentacle”"),
        ("bag.change", {"token": "joker", "delta": 1}, "no chaos token called “joker”"),
        ("bag.set", {"token": "bless", "count": 11}, "At most 10 Bless tokens"),
        ("bag.change", {"token": "curse", "delta": 11}, "At most 10 Curse tokens"),
        ("bag.change", {"token": "-8", "delta": -1}, "no −8 token left in the bag"),
        ("bag.seal", {"token": "frost"}, "no Frost token in the bag to seal"),
        ("bag.release", {"token": "skull"}, "No Skull token is sealed"),
        ("bag.another", {}, "No test is going on"),
        ("bag.done", {}, "No test is going on"),
        ("bag.record", {"token": "skull", "into": "same"}, "No test is going on"),
    ],
)
def test_bad_bag_changes_are_refused_with_a_message(owner_client, ark, action, data, message):
    before = snapshot(ark)
    response = post(owner_client, ark, action, True, page="bag", region="bag-pool", **data)
    assert response.status_code == 422
    assert message in text(response)
    assert snapshot(ark) == before


def test_bless_and_curse_count_sealed_ones_towards_ten(owner_client, owner, ark):
    post(owner_client, ark, "bag.set", token="bless", count=10, version=ark.version)
    ark.apply("bag.seal", {"token": "bless"}, owner)
    assert state(ark)["bag"]["bless"] == 9 and state(ark)["sealed"]["bless"] == 1
    response = post(owner_client, ark, "bag.change", token="bless", delta=1, region="bag-pool")
    assert response.status_code == 422
    assert "sealed ones included" in text(response)


def test_only_the_last_twenty_draws_are_listed(owner, ark):
    for _ in range(23):
        ark.apply("bag.draw", {}, owner, rng=random.Random())
    draws = state(ark)["draws"]
    assert len(draws) == 20
    assert state(ark)["stats"]["tests"] == 23
    assert [d["open"] for d in draws] == [False] * 19 + [True]


def test_undo_removes_a_draw_made_by_mistake(owner_client, owner, ark):
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    ark.undo(owner)
    assert state(ark)["draws"] == []
    assert state(ark)["stats"] == {"tests": 0, "tokens": {}}
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "Nothing drawn yet." in page


def test_no_response_holds_the_next_token(owner_client, owner, ark):
    """Nothing about a future draw exists: the state keeps counts, a draw is decided at draw
    time with the rng, and two draws from the same state can differ."""
    before = state(ark)
    assert before["bag"] == NOTZ_STANDARD
    first = ark.apply("bag.draw", {}, owner, rng=Picks(0)).data["tokens"]
    ark.undo(owner)
    assert state(ark)["bag"] == before["bag"]
    second = ark.apply("bag.draw", {}, owner, rng=Picks(15)).data["tokens"]
    assert first != second
    export = text(owner_client.get(f"/c/{ark.pk}/export.json"))
    assert "order" not in export and "next" not in export.replace("next_id", "")


# Exact odds


def test_percent_has_one_decimal_rounded_half_up():
    assert percent(Fraction(1, 16)) == "6.3%"
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(2, 3)) == "66.7%"
    assert percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(1)) == "100.0%"


def odds_rows(page: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<th scope="row">([^<]+)</th><td><svg.*?<span class="pct">([^<]+)</span>', page
    )


def test_the_odds_table_gives_every_margin_from_the_engine(owner_client, ark):
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    table = chaos.pass_table(NOTZ_STANDARD, {}, 2, range(-2, 7))
    expected = [(commands.signed(m), percent(c)) for m, c in table.items()]
    assert odds_rows(page) == expected
    assert ("0", "50.0%") in expected
    # Adding a token changes the odds on the next look.
    post(owner_client, ark, "bag.change", token="+1", delta=2)
    bag = {**NOTZ_STANDARD, "+1": 3}
    table = chaos.pass_table(bag, {}, 2, range(-2, 7))
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert odds_rows(page) == [(commands.signed(m), percent(c)) for m, c in table.items()]


def test_the_odds_follow_the_scenario_effects_and_the_elder_sign(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply("scenario.start", {"name": "The Gathering"}, owner)
    ark.apply(
        "scenario.effects",
        {
            "skull": "modifier",
            "skull_value": -2,
            "cultist": "fail",
            "tablet": "again",
            "tablet_value": -1,
            "elder_thing": "",
        },
        owner,
    )
    ark.apply(
        "investigator.elder", {"investigator": roland, "modifier": 2, "auto_succeed": False}, owner
    )
    effects = {
        "skull": {"modifier": -2},
        "cultist": {"auto_fail": True},
        "tablet": {"modifier": -1, "reveal_another": True},
        "elder_sign": {"modifier": 2},
    }
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/?skill=4&difficulty=3"))
    chance = chaos.success_probability(NOTZ_STANDARD, 4, 3, effects)
    assert f"Skill 4 against 3: <strong>{percent(chance)}</strong>" in page
    table = chaos.pass_table(NOTZ_STANDARD, effects, 2, range(-2, 7))
    assert odds_rows(page) == [(commands.signed(m), percent(c)) for m, c in table.items()]
    assert "For Roland Banks (elder sign: +2)" in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("skill=-1&difficulty=3", "Skill: Ensure this value is greater than or equal to 0."),
        ("skill=abc&difficulty=3", "Skill: Enter a whole number."),
        ("skill=3&difficulty=999", "Difficulty: Ensure this value is less than or equal to 40."),
        ("skill=3", "Difficulty: This field is required."),
    ],
)
def test_bad_odds_queries_say_why_and_never_fail(owner_client, ark, query, message):
    response = owner_client.get(f"/c/{ark.pk}/p/bag/?{query}")
    assert response.status_code == 200
    assert message in text(response)


def test_an_empty_bag_has_no_odds(owner_client, owner):
    made = make_arkham(owner, "custom")
    page = text(owner_client.get(f"/c/{made.pk}/p/bag/?skill=3&difficulty=2"))
    assert "The bag is empty: there are no odds to give." in page


# Investigators


def investigator(campaign, ident) -> dict:
    return next(i for i in state(campaign)["investigators"] if i["id"] == ident)


@pytest.mark.parametrize("htmx", [False, True], ids=["post", "htmx"])
def test_trauma_kills_at_health_and_drives_insane_at_sanity(owner_client, ark, htmx):
    roland = add_investigator(owner_client, ark, health=2, sanity=1)
    for _ in range(2):
        response = post(
            owner_client,
            ark,
            "investigator.trauma",
            htmx,
            investigator=roland,
            kind="physical",
            delta=1,
            region=f"inv-{roland}",
        )
        assert response.status_code == (200 if htmx else 302)
    assert investigator(ark, roland)["status"] == "killed"
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "Replace Roland Banks" in page
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=-1)
    assert investigator(ark, roland)["status"] == "active"
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="mental", delta=1)
    assert investigator(ark, roland)["status"] == "insane"


def test_negative_trauma_is_refused_next_to_the_investigator(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.trauma",
        True,
        investigator=roland,
        kind="mental",
        delta=-1,
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    body = text(response)
    assert "Roland Banks's mental trauma cannot go below 0." in body
    assert re.search(rf'id="inv-{roland}".*role="alert"', body, re.S)
    assert snapshot(ark) == before


def test_xp_is_earned_and_spent_at_its_level_at_least_one(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.xp", investigator=roland, delta=4)
    post(owner_client, ark, "investigator.buy", investigator=roland, card="Lucky!", level=0)
    post(owner_client, ark, "investigator.buy", investigator=roland, card="Deduction", level=2)
    found = investigator(ark, roland)
    assert (found["xp"], found["spent"]) == (4, 3)
    assert found["purchases"][-1] == {"card": "Deduction", "level": 2, "cost": 2}
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "investigator.buy",
        True,
        investigator=roland,
        card="Shotgun",
        level=4,
        region=f"inv-{roland}",
    )
    assert response.status_code == 422
    assert "Not enough XP: that costs 4 and Roland Banks has 1 unspent." in text(response)
    assert snapshot(ark) == before
    response = post(owner_client, ark, "investigator.xp", investigator=roland, delta=-2)
    assert response.status_code == 422
    assert snapshot(ark) == before
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks spent 2 XP on Deduction (level 2)" in history


def test_a_killed_investigator_is_replaced_and_stays_on_the_record(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    joe = add_investigator(
        owner_client, ark, name="Joe Diamond", health=8, sanity=6, replaces=roland
    )
    assert investigator(ark, roland)["replaced_by"] == joe
    assert investigator(ark, roland)["status"] == "killed"
    assert state(ark)["active"] == joe
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "replaced by Joe Diamond" in page and "replaces Roland Banks" in page
    response = post(
        owner_client,
        ark,
        "investigator.add",
        name="Zoey",
        health=9,
        sanity=5,
        replaces=roland,
        region="add-investigator",
    )
    assert response.status_code == 422
    assert "Roland Banks has already been replaced." in text(response)
    response = post(owner_client, ark, "investigator.mark", investigator=roland, status="active")
    assert response.status_code == 422


def test_story_assets_and_weaknesses_are_kept_per_investigator(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    post(owner_client, ark, "investigator.item", investigator=roland, kind="asset", text="Lita")
    post(
        owner_client,
        ark,
        "investigator.item",
        investigator=roland,
        kind="weakness",
        text="Paranoia",
    )
    items = investigator(ark, roland)["items"]
    assert [(i["kind"], i["text"]) for i in items] == [("asset", "Lita"), ("weakness", "Paranoia")]
    post(owner_client, ark, "investigator.unitem", investigator=roland, item=items[0]["id"])
    assert [i["text"] for i in investigator(ark, roland)["items"]] == ["Paranoia"]
    history = text(owner_client.get(f"/c/{ark.pk}/history/"))
    assert "Roland Banks earned the weakness “Paranoia”" in history


def test_an_elder_sign_of_automatic_success_passes_the_test(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply(
        "investigator.elder", {"investigator": roland, "modifier": 0, "auto_succeed": True}, owner
    )
    set_bag(ark, {"elder_sign": 1})
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    assert state(ark)["draws"][-1]["auto_succeed"] is True
    assert "Automatic success" in text(owner_client.get(f"/c/{ark.pk}/p/bag/"))


def test_supplies_belong_to_the_forgotten_age(owner_client, owner):
    tfa = make_arkham(owner, "tfa")
    roland = add_investigator(owner_client, tfa)
    post(owner_client, tfa, "supply.add", investigator=roland, supply="provisions")
    post(owner_client, tfa, "supply.add", investigator=roland, supply="provisions")
    post(owner_client, tfa, "supply.add", investigator=roland, supply="rope")
    assert investigator(tfa, roland)["supplies"] == {"provisions": 2, "rope": 1}
    response = post(owner_client, tfa, "supply.add", investigator=roland, supply="rope")
    assert "Roland Banks already has Rope." in text(response)
    post(owner_client, tfa, "supply.use", investigator=roland, supply="provisions")
    assert investigator(tfa, roland)["supplies"] == {"provisions": 1, "rope": 1}
    page = text(owner_client.get(f"/c/{tfa.pk}/"))
    assert "Supplies (4 points; 10 to start with at this table)" in page
    zealot = make_arkham(owner)
    other = add_investigator(owner_client, zealot)
    response = post(owner_client, zealot, "supply.add", investigator=other, supply="rope")
    assert "This campaign has no supplies." in text(response)


# The campaign log


def section(campaign, name) -> dict:
    return next(t for t in state(campaign)["trackers"] if t["name"] == name)


def test_campaign_notes_are_written_crossed_out_and_restored(owner_client, ark):
    notes = section(ark, "Campaign Notes")["id"]
    region = f"tracker-{notes}"
    post(owner_client, ark, "notes.add", tracker=notes, text="Lita was forced to find others")
    [entry] = section(ark, "Campaign Notes")["entries"]
    post(owner_client, ark, "notes.cross", tracker=notes, item=entry["id"], region=region)
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert '<span class="text crossed">Lita was forced to find others</span>' in page
    post(owner_client, ark, "notes.restore", tracker=notes, item=entry["id"], region=region)
    assert section(ark, "Campaign Notes")["entries"][0]["crossed"] is False


def test_named_counters_and_a_custom_section(owner_client, owner):
    ptc = make_arkham(owner, "ptc")
    doubt = section(ptc, "Doubt")["id"]
    post(owner_client, ptc, "counter.adjust", tracker=doubt, delta=1, region=f"tracker-{doubt}")
    assert section(ptc, "Doubt")["value"] == 1
    response = post(owner_client, ptc, "counter.adjust", tracker=doubt, delta=-2)
    assert "Doubt cannot go below 0." in text(response)
    post(
        owner_client, ptc, "tracker.add", kind="notes", name="Our house rules", region="add-section"
    )
    assert section(ptc, "Our house rules")["kind"] == "notes"
    page = text(owner_client.get(f"/c/{ptc.pk}/"))
    assert "Our house rules" in page and "Remove “Our house rules”" in page
    assert "Remove “Doubt”" not in page


# After a scenario


def scenario_post(owner_client, campaign, **fields):
    return post(owner_client, campaign, "scenario.record", region="record-scenario", **fields)


def test_a_scenario_is_recorded_as_one_event_and_one_undo_takes_it_back(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    agnes = add_investigator(owner_client, ark, name="Agnes Baker", health=6, sanity=8)
    post(owner_client, ark, "bag.change", token="bless", delta=2)
    post(owner_client, ark, "bag.change", token="frost", delta=1)
    ark.apply("bag.seal", {"token": "bless"}, owner)
    interrogated = section(ark, "Cultists We Interrogated")["id"]
    before = snapshot(ark)
    response = scenario_post(
        owner_client,
        ark,
        scenario="The Gathering",
        resolution="Resolution 1",
        **{
            f"xp-{roland}": 2,
            f"physical-{roland}": 1,
            f"mental-{roland}": 0,
            f"xp-{agnes}": 3,
            f"mental-{agnes}": 8,
            f"fate-{agnes}": "",
            f"entry-{interrogated}": "Herman Collins\n\nPeter Warren",
            "bag_op_1": "add",
            "bag_token_1": "cultist",
            "bag_count_1": 1,
            "bag_op_2": "remove",
            "bag_token_2": "-4",
            "bag_count_2": 1,
        },
    )
    assert response.status_code == 302
    after = state(ark)
    assert ark.version == before[0] + 1
    assert investigator(ark, roland)["physical"] == 1 and investigator(ark, roland)["xp"] == 2
    assert investigator(ark, agnes)["status"] == "insane"
    assert after["bag"]["cultist"] == 2 and "-4" not in after["bag"]
    assert "bless" not in after["bag"] and after["sealed"] == {}  # bless left with the scenario
    assert after["bag"]["frost"] == 1  # frost stays
    assert [e["text"] for e in section(ark, "Cultists We Interrogated")["entries"]] == [
        "Herman Collins",
        "Peter Warren",
    ]
    [result] = after["scenarios"]
    assert (result["name"], result["resolution"]) == ("The Gathering", "Resolution 1")
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert "Roland Banks: 2 XP, 1 physical trauma" in page
    assert "Agnes Baker: 3 XP, 8 mental trauma, <strong>insane</strong>" in page
    assert "Bag: added 1 × Cultist" in page and "Bag: removed 1 × −4" in page
    assert "Recorded the scenario “The Gathering”: Resolution 1" in text(
        owner_client.get(f"/c/{ark.pk}/history/")
    )
    ark.undo(owner)
    assert snapshot(ark)[1] == before[1]


def test_scenario_results_are_listed_in_order(owner_client, ark):
    add_investigator(owner_client, ark)
    for name in ("The Gathering", "The Midnight Masks", "The Devourer Below"):
        assert scenario_post(owner_client, ark, scenario=name).status_code == 302
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert page.index("The Gathering") < page.index("The Midnight Masks")
    assert page.index("The Midnight Masks") < page.index("The Devourer Below")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("physical", -1, "Roland Banks: physical trauma gained cannot be negative."),
        ("mental", -2, "Roland Banks: mental trauma gained cannot be negative."),
        ("xp", -1, "Roland Banks: XP gained must be from 0 to 100."),
        ("xp", "lots", "XP: Enter a whole number."),
    ],
)
def test_a_bad_scenario_record_is_refused_next_to_the_field(
    owner_client, ark, field, value, message
):
    roland = add_investigator(owner_client, ark)
    before = snapshot(ark)
    response = post(
        owner_client,
        ark,
        "scenario.record",
        True,
        region="record-scenario",
        scenario="The Gathering",
        **{f"{field}-{roland}": value, f"xp-{roland}": value if field == "xp" else 1},
    )
    assert response.status_code == 422
    body = text(response)
    assert message in body
    # The message sits in the investigator's fieldset, and what was typed is kept.
    fieldset = re.search(r'<fieldset class="scenario-investigator">.*?</fieldset>', body, re.S)
    assert message.split(": ", 1)[-1] in fieldset.group()
    assert 'value="The Gathering"' in body
    assert snapshot(ark) == before


def test_a_scenario_cannot_remove_a_token_that_is_not_in_the_bag(owner_client, ark):
    before = snapshot(ark)
    response = scenario_post(
        owner_client, ark, scenario="X", bag_op_1="remove", bag_token_1="-8", bag_count_1=1
    )
    assert response.status_code == 422
    assert "no −8 token left in the bag" in text(response)
    assert snapshot(ark) == before


# The round helper


def next_step(client, campaign, loop=False):
    rnd = state(campaign)["round"]
    data_ = {"from": rnd["step"], "region": "round-now", "page": "round"}
    if loop:
        data_["loop"] = "on"
    response = post(client, campaign, "round.next", **data_)
    assert response.status_code == 302, text(response)
    return state(campaign)["round"]


def test_the_round_helper_walks_the_framework_steps(owner_client, ark):
    page = text(owner_client.get(f"/c/{ark.pk}/p/round/"))
    assert "Round 1" in page and "skipped in round 1" in page
    rnd = state(ark)["round"]
    assert (rnd["number"], rnd["step"]) == (1, "2.1")  # no mythos phase in round 1
    steps = []
    while rnd["number"] == 1:
        rnd = next_step(owner_client, ark)
        steps.append(rnd["step"])
    assert steps[:3] == ["2.2", "2.2.1", "2.2.2"]
    assert steps[-2:] == ["4.6", "1.1"]
    assert rnd["number"] == 2
    page = text(owner_client.get(f"/c/{ark.pk}/p/round/"))
    assert "skipped in round 1" not in page and "Round 2" in page


def test_a_turn_end_leads_to_the_next_investigators_turn(owner_client, ark):
    for _ in range(3):
        next_step(owner_client, ark)
    assert state(ark)["round"]["step"] == "2.2.2"
    assert next_step(owner_client, ark, loop=True)["step"] == "2.2"


def test_doom_reaching_the_threshold_at_step_1_3_advances_the_agenda(owner_client, ark):
    post(owner_client, ark, "round.threshold", threshold=2, version=ark.version)
    post(owner_client, ark, "round.doom", delta=1)
    while state(ark)["round"]["step"] != "1.1":
        next_step(owner_client, ark)
    rnd = next_step(owner_client, ark)  # 1.2 places one doom
    assert (rnd["step"], rnd["doom"]) == ("1.2", 2)
    rnd = next_step(owner_client, ark)  # 1.3: 2 ≥ 2, the agenda advances
    assert (rnd["step"], rnd["doom"], rnd["agenda"]) == ("1.3", 0, 2)
    page = text(owner_client.get(f"/c/{ark.pk}/p/round/"))
    assert "the agenda advances (now agenda 2)" in page


def test_the_round_refuses_a_step_from_a_stale_screen(owner_client, ark):
    before = snapshot(ark)
    response = post(owner_client, ark, "round.next", **{"from": "3.2", "region": "round-now"})
    assert response.status_code == 422
    assert "The round has moved on meanwhile" in text(response)
    response = post(owner_client, ark, "round.doom", delta=-1, region="round-doom")
    assert "Doom cannot go below 0." in text(response)
    assert snapshot(ark) == before


def test_starting_a_scenario_resets_the_round(owner_client, owner, ark):
    next_step(owner_client, ark)
    ark.apply("scenario.start", {"name": "The Midnight Masks"}, owner)
    rnd = state(ark)["round"]
    assert (rnd["number"], rnd["step"], rnd["doom"]) == (1, "2.1", 0)
    assert "Playing <strong>The Midnight Masks</strong>" in text(owner_client.get(f"/c/{ark.pk}/"))


def test_only_the_other_phones_buzz_for_a_new_token(owner_client, owner, ark):
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    test = state(ark)["draws"][-1]["id"]
    marker = f'id="drawn-{test}-0" class="newest" data-buzz'
    refreshed = text(
        owner_client.get(f"/c/{ark.pk}/p/bag/", HTTP_HX_REQUEST="true", HTTP_X_LIVE_REFRESH="true")
    )
    assert f"{marker}>" in refreshed  # a live refresh on another phone: buzz once
    opened = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert f"{marker} data-buzzed>" in opened  # opening the page is no news


def test_a_viewer_follows_the_bag_but_cannot_draw(ark, owner, stranger):
    Membership.objects.create(campaign=ark, user=stranger, role=Membership.Role.VIEWER)
    ark.apply("bag.draw", {}, owner, rng=Picks(0))
    client = Client()
    client.force_login(stranger)
    for path in ("/", "/p/bag/", "/p/round/", "/history/"):
        assert client.get(f"/c/{ark.pk}{path}").status_code == 200
    page = text(client.get(f"/c/{ark.pk}/p/bag/"))
    assert 'class="newest"' in page
    assert "Draw for a new test" not in page and "Record a physical draw" not in page
    before = snapshot(ark)
    assert post(client, ark, "bag.draw").status_code == 403
    assert snapshot(ark) == before


def test_every_token_has_an_icon_of_our_own():
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "static" / "icons" / "arkham"
    for token in chaos.TOKENS:
        svg = (folder / f"{data.TOKEN_ICONS[token]}.svg").read_text()
        assert svg.startswith("<svg") and 'viewBox="0 0 100 100"' in svg
        assert "<script" not in svg and "<image" not in svg and "href" not in svg


# The review's rule fixes


def test_a_replaced_investigator_stays_off_the_table_whatever_their_trauma(owner_client, ark):
    roland = add_investigator(owner_client, ark, health=2)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=2)
    assert investigator(ark, roland)["status"] == "killed"
    add_investigator(owner_client, ark, name="Joe Diamond", replaces=roland)
    post(owner_client, ark, "investigator.trauma", investigator=roland, kind="physical", delta=-1)
    assert investigator(ark, roland)["status"] == "killed"
    page = text(owner_client.get(f"/c/{ark.pk}/p/bag/"))
    assert "Joe Diamond</option>" in page
    assert "Roland Banks</option>" not in page


def test_the_groups_mark_wins_over_the_trauma_count(owner_client, ark):
    agnes = add_investigator(owner_client, ark, name="Agnes Baker", health=6, sanity=2)
    response = scenario_post(
        owner_client,
        ark,
        scenario="The Gathering",
        **{f"xp-{agnes}": 0, f"mental-{agnes}": 2, f"fate-{agnes}": "killed"},
    )
    assert response.status_code == 302
    assert investigator(ark, agnes)["status"] == "killed"


def test_a_killed_investigator_is_no_longer_the_one_testing(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    assert state(ark)["active"] == roland
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    assert state(ark)["active"] is None


def test_sealed_tokens_go_back_into_the_bag_when_the_scenario_ends(owner_client, owner, ark):
    add_investigator(owner_client, ark)
    ark.apply("bag.seal", {"token": "elder_sign"}, owner)
    assert state(ark)["sealed"] == {"elder_sign": 1}
    assert scenario_post(owner_client, ark, scenario="The Gathering").status_code == 302
    assert state(ark)["sealed"] == {}
    assert state(ark)["bag"]["elder_sign"] == 1


def test_starting_another_scenario_clears_bless_and_curse(owner_client, owner, ark):
    ark.apply("scenario.start", {"name": "The Gathering"}, owner)
    post(owner_client, ark, "bag.change", token="bless", delta=2)
    post(owner_client, ark, "bag.change", token="frost", delta=1)
    ark.apply("scenario.start", {"name": "The Midnight Masks"}, owner)
    assert "bless" not in state(ark)["bag"]
    assert state(ark)["bag"]["frost"] == 1


def test_done_from_a_phone_that_saw_an_older_test_is_refused(owner_client, owner, ark):
    add_investigator(owner_client, ark)
    ark.apply("bag.draw", {}, owner)
    first = state(ark)["draws"][-1]["id"]
    ark.apply("bag.draw", {}, owner)  # another phone starts a new test meanwhile
    before = snapshot(ark)
    for action in ("bag.done", "bag.another"):
        response = post(owner_client, ark, action, htmx=True, test=first, region="bag-drawn")
        assert response.status_code == 422
        assert "That test ended on another phone meanwhile" in text(response)
        assert snapshot(ark) == before
    current = state(ark)["draws"][-1]["id"]
    assert post(owner_client, ark, "bag.done", test=current).status_code == 302
