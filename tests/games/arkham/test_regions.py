"""The Arkham pages answer a change with the regions it changed (`{% region %}`), each once, and
a refusal in the region its form sits in, next to the field."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.arkham.helpers import add_investigator, post, set_bag, state, text


def ids(response) -> list[str]:
    """The live regions in an answer, in order."""
    return re.findall(r'<[a-z0-9]+ [^>]*?\bid="([a-z0-9-]+)"[^>]*\bdata-live', text(response))


def test_a_draw_answers_with_the_bag_regions_it_changed_and_not_the_page(owner_client, ark):
    version = ark.version
    tap = {"page": "bag", "region": "bag-actions", "version": version}
    response = post(owner_client, ark, "bag.draw", True, **tap)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#bag-actions"
    shown = ids(response)
    assert shown[0] == "bag-actions"
    assert {"bag-drawn", "bag-draws", "bag-in", "bag-stats", "undo-bar"} <= set(shown)
    assert len(shown) == len(set(shown))  # each once
    # Who tests, the token effects and the bag's contents did not change: not in the answer;
    # nor the odds and the pool, with no bless or curse drawn (the Zealot's standard bag has
    # none).
    assert not {"bag-who", "bag-effects", "bag-correct", "bag-odds", "bag-pool"} & set(shown)
    assert 'id="campaign-content"' not in text(response)
    assert state(ark)["stats"]["tests"] == 1


def test_a_draw_that_takes_a_bless_out_brings_the_odds_and_the_pool_it_changed(owner_client, ark):
    set_bag(ark, {"bless": 1})
    tap = {"page": "bag", "region": "bag-actions", "version": ark.version}
    response = post(owner_client, ark, "bag.draw", True, **tap)
    assert response.status_code == 200
    assert [t["token"] for t in state(ark)["draws"][0]["tokens"]] == ["bless"]
    assert {"bag-odds", "bag-pool"} <= set(ids(response))
    assert "The bag is empty: there are no odds to give." in text(response)
    # The next test ends this one: the bless goes back to the pool, which the answer shows.
    set_bag(ark, {**state(ark)["bag"], "-1": 1})
    tap["version"] = ark.version
    response = post(owner_client, ark, "bag.draw", True, **tap)
    assert response.status_code == 200
    assert "bless" not in state(ark)["bag"]
    assert "bag-pool" in ids(response) and "bag-odds" not in ids(response)


def seal_buttons(response) -> list[str]:
    seal = text(response).split('id="bag-seal"', 1)[1]
    return re.findall(r'name="token" value="([^"]+)" class="token-button quiet"', seal)


def test_a_draw_brings_the_tokens_to_seal_only_when_it_takes_out_the_last_of_one(owner_client, ark):
    set_bag(ark, {"-1": 2, "0": 1})
    tap = {"page": "bag", "region": "bag-actions"}
    drawn = None
    for _tries in range(40):  # until a draw leaves one of what it took in the bag
        response = post(owner_client, ark, "bag.draw", True, version=ark.version, **tap)
        assert response.status_code == 200
        drawn = state(ark)["draws"][-1]["tokens"][0]["token"]
        if drawn == "-1" and len(state(ark)["draws"]) > 1:
            previous = state(ark)["draws"][-2]["tokens"][0]["token"]
            if previous == "-1":
                break
    else:
        raise AssertionError("no two −1 in a row in 40 draws")
    # A −1 is out and another is in the bag, as in the test before: the same tokens to seal.
    assert "bag-seal" not in ids(response)
    # The lone 0 out: it can no longer be sealed, and the answer says so.
    for _tries in range(40):
        response = post(owner_client, ark, "bag.draw", True, version=ark.version, **tap)
        if state(ark)["draws"][-1]["tokens"][0]["token"] == "0":
            break
    assert "bag-seal" in ids(response)
    assert seal_buttons(response) == ["-1"]


def test_a_draw_reads_and_writes_the_database_in_a_few_queries(owner_client, ark):
    """What a draw asks of the database: the session, the user, the membership with its
    campaign; then, in the transaction, the locked campaign, the event and the campaign saved.
    Nothing more is read to draw the answer: the undo bar's event is the one just made. (The
    phone showed the bag page a moment before: "last seen" is written at most once a minute.)"""
    owner_client.get(f"/c/{ark.pk}/p/bag/")
    tap = {"page": "bag", "region": "bag-actions", "version": ark.version}
    with CaptureQueriesContext(connection) as queries:
        response = post(owner_client, ark, "bag.draw", True, **tap)
    assert response.status_code == 200
    # On SQLite the locked campaign comes with the undo stack's top joined (BEGIN IMMEDIATE
    # holds the whole database); PostgreSQL reads the top after the lock (Campaign.apply).
    expected = 8 if connection.vendor == "sqlite" else 9
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) <= expected, statements


def test_a_trauma_tap_on_the_table_answers_with_its_investigator_only(owner_client, ark):
    roland = add_investigator(owner_client, ark)
    tap = {"investigator": roland, "kind": "mental", "delta": 1, "region": f"inv-{roland}"}
    response = post(owner_client, ark, "investigator.trauma", True, **tap)
    assert response.status_code == 200
    assert ids(response) == [f"inv-{roland}", "undo-bar"]
    assert response["HX-Retarget"] == f"#inv-{roland}"


def test_setting_too_many_blesses_keeps_the_number_and_says_why_by_it(owner_client, ark):
    tap = {"token": "bless", "count": 11, "page": "bag", "region": "bag-pool"}
    response = post(owner_client, ark, "bag.set", True, **tap)
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#bag-pool"
    field = re.search(r"How many<input([^>]*)></label>(<p[^>]*>[^<]*)", text(response))
    assert field is not None
    assert 'value="11"' in field.group(1) and 'max="99"' in field.group(1)
    assert (
        field.group(2)
        == '<p class="error" role="alert">At most 10 Bless tokens, sealed ones included.'
    )
    assert "bless" not in state(ark)["bag"]


def test_a_replacement_refused_shows_in_its_own_form(owner_client, owner, ark):
    roland = add_investigator(owner_client, ark)
    ark.apply("investigator.mark", {"investigator": roland, "status": "killed"}, owner)
    region = f"replace-inv-{roland}"
    data = {"name": "", "player": "Olive", "health": 7, "sanity": 7, "replaces": roland}
    response = post(owner_client, ark, "investigator.add", True, region=region, **data)
    assert response.status_code == 422
    body = text(response)
    # Its own region, inside the investigators' (which the answer brings): not the undo bar.
    replace = body[body.index(f'id="{region}"') :]
    assert "Pick an investigator, or type a name." in replace[: replace.index("</details>")]
    assert len(state(ark)["investigators"]) == 1
