"""The games Companion knows, in one registry. A game appears here when it works."""

from campaigns.games.aeonsend import GAME as AEONSEND
from campaigns.games.anygame import GAME as ANY_GAME
from campaigns.games.arkham import GAME as ARKHAM
from campaigns.games.base import Game
from campaigns.games.eldritch import GAME as ELDRITCH
from campaigns.games.noir import GAME as NOIR

GAMES: dict[str, Game] = {game.key: game for game in [ANY_GAME, ARKHAM, AEONSEND, ELDRITCH, NOIR]}


def game_choices() -> list[tuple[str, str]]:
    return [(key, game.name) for key, game in GAMES.items()]
