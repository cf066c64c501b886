"""The games Companion knows, in one registry. A game appears here when it works."""

from django_stubs_ext import StrOrPromise

from campaigns.games.aeonsend import GAME as AEONSEND
from campaigns.games.anygame import GAME as ANY_GAME
from campaigns.games.arkham import GAME as ARKHAM
from campaigns.games.base import AnyGame
from campaigns.games.eldritch import GAME as ELDRITCH
from campaigns.games.noir import GAME as NOIR

# Where the game is chosen at run time (by a campaign's `game`): each game's commands and
# context take its own state type, so the registry holds them as AnyGame.
ALL: tuple[AnyGame, ...] = (ANY_GAME, ARKHAM, AEONSEND, ELDRITCH, NOIR)
GAMES = {game.key: game for game in ALL}


def game_choices() -> list[tuple[str, StrOrPromise]]:
    return [(key, game.name) for key, game in GAMES.items()]
