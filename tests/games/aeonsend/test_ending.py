"""Aeon's End: Legacy: a finished game stays finished (rules.md §2d, [003:583-591])."""

import copy
import html
import json

from campaigns.games.aeonsend import turns
from campaigns.transfer import export_campaign, import_campaign
from tests.games.aeonsend.helpers import act, make_ae, state_of
from tests.journeys import snapshot, text


def start(client, campaign, **values):
    values = {"nemesis": "Maelstrom", "nemesis_life": "50", "region": "new-game", **values}
    return act(client, campaign, "ae.start", **values)


def life(client, campaign, who, delta):
    return act(client, campaign, "ae.life", who=who, delta=delta, region="life", page="turns")


def test_gravehold_at_0_ends_the_game_and_refuses_more_damage(owner, owner_client, ae):
    # rules.md §2d: "Gravehold has 0 life" → lose; the game is over from that moment.
    start(owner_client, ae)
    life(owner_client, ae, "gravehold", -30)
    before = snapshot(ae)
    for who, delta in (("gravehold", -1), ("0", -3), ("nemesis", -50), ("1", 1)):
        response = life(owner_client, ae, who, delta)
        assert response.status_code == 422
        assert "This game is over (a loss)" in text(response)
        assert snapshot(ae) == before
    # Nor is the next turn drawn, nor offered.
    assert act(owner_client, ae, "ae.draw", region="deck", page="turns").status_code == 422
    assert snapshot(ae) == before
    turns_page = html.unescape(text(owner_client.get(f"/c/{ae.pk}/p/turns/")))
    assert "Turn order · round" in turns_page
    assert "Draw the next turn" not in turns_page
    chart = text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    assert 'value="loss" required checked' in chart
    ae.refresh_from_db()
    ae.undo(owner)  # Gravehold back above 0: the game goes on, and its next turn is offered
    assert "Draw the next turn" in html.unescape(text(owner_client.get(f"/c/{ae.pk}/p/turns/")))


def test_a_win_cannot_override_an_earlier_loss(owner_client, ae):
    # rules.md §2d: all players exhausted → "the game ends immediately" [003:566].
    start(owner_client, ae, nemesis_life="5")
    life(owner_client, ae, "0", -10)
    life(owner_client, ae, "1", -10)
    response = life(owner_client, ae, "nemesis", -5)
    assert response.status_code == 422
    assert state_of(ae)["table"]["nemesis_life"] == 5
    page = text(owner_client.get(f"/c/{ae.pk}/p/turns/"))
    assert "Every player is exhausted: you lose." in page and "you win" not in page
    assert 'value="loss" required checked' in text(owner_client.get(f"/c/{ae.pk}/p/chart/"))


def test_a_win_stays_a_win_until_the_next_game_or_an_undo(owner, owner_client, ae):
    # rules.md §2d: the nemesis at 0 life → "the players immediately win" [003:384].
    start(owner_client, ae, nemesis_life="3")
    life(owner_client, ae, "nemesis", -3)
    assert life(owner_client, ae, "gravehold", -30).status_code == 422
    assert state_of(ae)["table"]["gravehold"] == 30
    assert 'value="win" required checked' in text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    ae.refresh_from_db()
    ae.undo(owner)
    assert life(owner_client, ae, "gravehold", -2).status_code == 302
    life(owner_client, ae, "nemesis", -3)
    start(owner_client, ae)
    assert life(owner_client, ae, "gravehold", -2).status_code == 302
    assert state_of(ae)["table"]["gravehold"] == 28


def test_a_solo_mage_exhausted_does_not_end_the_game(owner, owner_client):
    # rules.md §2d "Solo": you lose only when Gravehold has 0 life [003:605].
    solo = make_ae(owner, "Ada", solo=True, name="Solo")
    start(owner_client, solo)
    life(owner_client, solo, "0", -10)
    assert life(owner_client, solo, "0", -2).status_code == 302
    assert state_of(solo)["table"]["gravehold"] == 26


def test_a_history_saved_with_changes_after_the_end_still_imports(owner, owner_client, ae):
    # Before this rule the table took damage after Gravehold fell; such files must replay.
    start(owner_client, ae)
    life(owner_client, ae, "gravehold", -30)
    ae.refresh_from_db()
    document = export_campaign(ae)
    late = {"who": "0", "delta": -4, "name": "Ada"}
    state = copy.deepcopy(document["state"])
    turns.apply_life(state, late)
    last = document["events"][-1]
    document["events"].append({**last, "seq": last["seq"] + 1, "action": "ae.life", "data": late})
    document.update(state=state, version=document["version"] + 1)
    imported = import_campaign(json.dumps(document).encode(), owner)
    assert imported.state["table"]["lives"] == [6, 10]


def test_the_nemesis_own_condition_ends_the_game_as_a_loss_that_stays(owner, owner_client, ae):
    # rules.md §2d [003:591]: a nemesis mat may name a condition that loses the game at once.
    page = html.unescape(text(owner_client.get(f"/c/{ae.pk}/p/turns/")))
    assert "Its condition is met: we lose" not in page  # no game yet: nothing to lose
    start(owner_client, ae)
    page = html.unescape(text(owner_client.get(f"/c/{ae.pk}/p/turns/")))
    assert "Its condition is met: we lose" in page
    response = act(owner_client, ae, "ae.lose", region="life", page="turns")
    assert response.status_code == 302
    page = html.unescape(text(owner_client.get(f"/c/{ae.pk}/p/turns/")))
    assert "The nemesis's own condition is met: you lose." in page
    assert "Its condition is met: we lose" not in page
    before = snapshot(ae)
    for who, delta in (("nemesis", -50), ("gravehold", 1)):
        response = life(owner_client, ae, who, delta)
        assert response.status_code == 422
        assert "This game is over (a loss)" in text(response)
    response = act(owner_client, ae, "ae.lose", region="life", page="turns")
    assert response.status_code == 422
    assert act(owner_client, ae, "ae.draw", region="deck", page="turns").status_code == 422
    assert snapshot(ae) == before
    assert 'value="loss" required checked' in text(owner_client.get(f"/c/{ae.pk}/p/chart/"))
    history = html.unescape(text(owner_client.get(f"/c/{ae.pk}/history/")))
    assert "Lost by the nemesis's own condition" in history
    ae.refresh_from_db()
    ae.undo(owner)
    assert life(owner_client, ae, "gravehold", -2).status_code == 302
    act(owner_client, ae, "ae.lose", region="life", page="turns")
    start(owner_client, ae)  # the next game starts afresh
    assert life(owner_client, ae, "gravehold", -2).status_code == 302


def test_no_game_has_no_nemesis_condition_to_lose_by(owner_client, ae):
    before = snapshot(ae)
    response = act(owner_client, ae, "ae.lose", region="life", page="turns")
    assert response.status_code == 422
    assert "Start a game first: name the nemesis and its life." in text(response)
    assert snapshot(ae) == before
