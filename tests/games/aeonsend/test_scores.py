"""Aeon's End: Legacy: the score chart."""

import re

import pytest

from tests.games.aeonsend.helpers import state_of
from tests.journeys import HTMX, snapshot, text

# The score chart


def score(**change) -> dict:
    values = {
        "date": "2024-03-01",
        "chapter": "1",
        "nemesis": "Maelstrom",
        "result": "win",
        "gravehold": "12",
        "nemesis_life": "0",
        "life_1": "4",
        "life_2": "0",
        "rounds": "9",
        "notes": "close",
        "region": "score-add",
        "page": "chart",
    }
    values.update(change)
    return values


def test_a_game_in_the_score_chart_draws_both_charts(owner_client, ae):
    response = owner_client.post(f"/c/{ae.pk}/do/ae.score/", score())
    assert response.status_code == 302
    assert response.url == f"/c/{ae.pk}/p/chart/#score-add"
    owner_client.post(
        f"/c/{ae.pk}/do/ae.score/", score(result="loss", gravehold="0", nemesis_life="17")
    )
    rows = state_of(ae)["scores"]
    assert rows[0]["lives"] == [4, 0] and rows[0]["rounds"] == 9
    page = text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    assert page.count('<svg class="ae-chart"') == 2
    assert "2 games: 1 won, 1 lost." in page
    assert 'class="ae-nemesis-left"' in page  # the loss's nemesis life, below the line
    assert "Gravehold 12 · nemesis 0 · Ada 4 · Bo 0" in page


@pytest.mark.parametrize(
    "change, message",
    [
        ({"gravehold": "-1"}, "Life left cannot be negative."),
        ({"life_2": "-3"}, "Life left cannot be negative."),
        ({"nemesis_life": "-5"}, "Life left cannot be negative."),
        ({"life_2": ""}, "Type the life Bo has left."),
        ({"life_3": "5"}, "This campaign has no player 3."),
        ({"rounds": "-1"}, "The number of rounds cannot be negative."),
        ({"date": "yesterday"}, "Enter a valid date."),
        ({"date": "2099-03-01"}, "Pick a day from 1970 to today."),
        ({"date": "1969-12-31"}, "Pick a day from 1970 to today."),
    ],
)
def test_a_bad_score_row_is_refused_next_to_the_field(owner_client, ae, change, message):
    before = snapshot(ae)
    response = owner_client.post(f"/c/{ae.pk}/do/ae.score/", score(**change), **HTMX)
    assert response.status_code == 422
    body = text(response)
    assert message in body
    assert body.count('role="alert"') == 1
    field = next(iter(change))
    if field != "life_3":
        # The message sits right after the field's input.
        assert re.search(rf'name="{field}".{{0,800}}{re.escape(message)}', body, re.S), field
    assert snapshot(ae) == before
