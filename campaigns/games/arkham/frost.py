"""Frost (``shared/spec/rules.md`` §1b): a frost token is −1 and reveals another; a second
frost revealed in one test fails it (the engine counts them: ``campaigns.engines.chaos.chain``,
``chaos_count``); a scenario card's symbol may count as a frost. At most 8 in the game
(``data.TOKEN_LIMITS``); unlike bless and curse, frost stays in the bag at a scenario's end.
"""

from __future__ import annotations

from campaigns.engines import chaos
from campaigns.games.arkham.state import CardLine, Test


def mark_second_frosts(test: Test, outcome: chaos.Chain) -> None:
    """Mark each frost revealed after the first one: each is an automatic failure."""
    for index in outcome.second_frosts:
        test["tokens"][index]["second_frost"] = True


def counts_as_frost(line: CardLine, result: chaos.Effect) -> None:
    """A scenario card's symbol that counts as a frost (−1, reveal another), in addition to its
    own modifier or instead."""
    if line.get("alt_token") == "frost":
        own = int(result["modifier"]) if line.get("alt_token_in_addition") else 0
        result.update(modifier=own - 1, reveal_another=True, as_frost=True)
