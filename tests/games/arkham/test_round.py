"""The round helper: framework steps, doom against the threshold, the agenda."""

import re

from tests.games.arkham.helpers import (
    next_step,
    post,
    state,
    text,
)
from tests.journeys import snapshot


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


# The page is drawn from the commands' forms, and a change answers with the regions it changed


def test_a_doom_tap_answers_with_the_doom_and_the_step_it_shows(owner_client, ark):
    tap = {"delta": 1, "page": "round", "region": "round-doom"}
    response = post(owner_client, ark, "round.doom", True, **tap)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#round-doom"
    body = text(response)
    assert 'id="round-doom"' in body and 'id="round-now"' in body
    assert 'id="round-steps"' not in body  # nothing the change left alone
    assert state(ark)["round"]["doom"] == 1


def test_a_threshold_out_of_range_is_refused_next_to_its_field(owner_client, ark):
    tap = {"threshold": 100, "page": "round", "region": "round-doom"}
    response = post(owner_client, ark, "round.threshold", True, **tap)
    assert response.status_code == 422
    body = text(response)
    label = r'<label class="grow">Doom threshold<input([^>]*)></label>(<p[^>]*>[^<]*)'
    field = re.search(label, body)
    assert field is not None
    assert 'max="99"' in field.group(1) and 'value="100"' in field.group(1)  # kept as typed
    message = "Ensure this value is less than or equal to 99."
    assert field.group(2) == f'<p class="error" role="alert">{message}'
    assert state(ark)["round"]["threshold"] is None
