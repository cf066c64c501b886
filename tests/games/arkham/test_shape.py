"""The game's shape (issue 7): pages get what they need as plain values, never the request, and
no module grows past what a reader holds in mind."""

from pathlib import Path

from campaigns.engines import chaos
from campaigns.games import GAMES
from campaigns.games.arkham import bag_page
from campaigns.games.base import Viewing
from tests.games.arkham.helpers import NOTZ_STANDARD

PACKAGE = Path(bag_page.__file__).parent


def test_the_game_reads_no_request():
    for module in PACKAGE.glob("*.py"):
        source = module.read_text()
        for concern in ("request", "resolver_match", "POST", "headers"):
            assert concern not in source, (module.name, concern)


def test_no_module_of_the_game_is_over_about_500_lines():
    for module in PACKAGE.glob("*.py"):
        assert len(module.read_text().splitlines()) <= 520, module.name


def test_the_bag_page_takes_the_typed_odds_as_plain_values():
    game = GAMES["arkham"]
    state = game.initial_state({"campaign": "notz", "difficulty": "standard"})
    shown = game.context(None, state, Viewing(page="bag", query={"skill": "4", "difficulty": "3"}))
    expected = bag_page.percent(chaos.success_probability(NOTZ_STANDARD, 4, 3))
    assert shown["ark"]["odds"]["typed"] == expected
    assert game.context(None, state, Viewing(page=""))["ark"]["odds"] is None  # table page
    live = game.context(None, state, Viewing(live=True, acted="bag.draw", acted_in="bag-actions"))
    assert live["ark"]["buzz"] and live["ark"]["acted_in"] == "bag-actions"
