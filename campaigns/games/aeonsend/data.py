"""Aeon's End: Legacy facts the companion needs: counts, letters, timings. Never printed text.

Source: shared/spec/rules.md §2 (AE:L) and §5 (G-AE-*). Where the digest says a fact is not in
the seed, it is left for the group to fill in (the unknown sticker timings F, G, H, I and V).
Labels are lazy translations; the state stores only keys and numbers, never translated words,
so a replay in another language gives the same state.
"""

from django.utils.translation import gettext_lazy as _

from campaigns.vocabulary import COLOUR_WORDS, DIFFICULTY_WORDS, RESULT_WORDS, pick

# The campaign's player count is fixed for the whole campaign [003:63].
MIN_PLAYERS, MAX_PLAYERS = 1, 4

# Chapters: the stickers are keyed to "beginning / end of Chapter N". The seed names chapters
# 1–5 but not how many there are in all (G-AE-10), so the record goes a little further.
MAX_CHAPTER = 8
STAGES = ("beginning", "end")


def point(chapter: int, stage: str) -> str:
    """A point of the campaign, as stored: "2-end", "3-beginning"."""
    return f"{chapter}-{stage}"


POINTS = [point(n, stage) for n in range(1, MAX_CHAPTER + 1) for stage in STAGES]
FIRST_POINT = POINTS[0]

# Rulebook sticker slots A–Z and when each unlocks (rules.md §2e). F, G, H, I and V do not
# appear in the seed (G-AE-2): their timing is unknown and the group may set it.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STICKER_TIMING = {
    "A": "2-end",
    "B": "3-beginning",
    "C": "4-beginning",
    "D": "5-end",
    "E": "3-end",
    "J": "5-beginning",
    "K": "3-beginning",
    "L": "3-beginning",
    "M": "3-end",
    "N": "2-end",
    "O": "2-end",
    "P": "3-beginning",
    "Q": "2-end",
    "R": "3-beginning",
    "S": "2-beginning",
    "T": "3-beginning",
    "U": "4-beginning",
    "W": "3-end",
    "X": "5-beginning",
    "Y": "2-end",
    "Z": "3-beginning",
}
UNKNOWN_TIMING = tuple(letter for letter in LETTERS if letter not in STICKER_TIMING)
assert len(STICKER_TIMING) == 21 and UNKNOWN_TIMING == ("F", "G", "H", "I", "V")

# Where each slot sits in the rulebook (section names only).
SECTIONS = {
    "contents": _("Contents"),
    "player-setup": _("Player setup"),
    "nemesis-setup": _("Nemesis setup"),
    "supply": _("Supply setup and upgrades"),
    "turn-overview": _("Player turn overview"),
    "casting": _("Casting phase"),
    "main-phase": _("Main phase"),
    "nemesis-draw": _("Nemesis draw phase"),
    "exhausted": _("Exhausted"),
    "game-terms": _("Game terms"),
    "game-end": _("Game end"),
    "solo": _("Before solo play"),
}
STICKER_SECTION = {
    **dict.fromkeys("ABCDE", "contents"),
    "J": "player-setup",
    "K": "nemesis-setup",
    "L": "nemesis-setup",
    "M": "supply",
    "N": "turn-overview",
    "O": "casting",
    "P": "casting",
    "Q": "main-phase",
    "R": "nemesis-draw",
    "S": "exhausted",
    "T": "exhausted",
    "U": "exhausted",
    "W": "game-terms",
    "X": "game-terms",
    "Y": "game-end",
    "Z": "solo",
}
# Errata 2 and 3: which Insight sticker goes on which slot (the slot ↔ insight mapping is known
# only for these two, G-AE-14). K replaces nemesis setup steps 7 and 8 from Chapter 3.
STICKER_NOTES = {
    "S": _("Errata: the sticker from Insight 2a goes here."),
    "J": _("Errata: the Insight 10 sticker that begins “During setup,…” goes here."),
    "K": _("Replaces nemesis setup steps 7 and 8."),
}

# Sealed contents: "do not open until instructed" (rules.md §2e).
STOP_DECKS = ("E", "Ia", "Ib", "Ic", "Id", "II", "III", "IV", "L", "V", "VI", "VII", "END")
BOXES = ("A", "B", "C", "D")
ENVELOPES = (1, 2, 3, 4, 5)
INSIGHT_PAGES = (1, 2, 3, 4, 5, 6, 7)
SEALED_KINDS = {
    "stop": _("Stop decks"),
    "box": _("Boxes"),
    "envelope": _("Chapter envelopes"),
    "insight": _("Insight pages"),
}
SEALED = {
    **{f"stop-{label}": ("stop", label) for label in STOP_DECKS},
    **{f"box-{label}": ("box", label) for label in BOXES},
    **{f"envelope-{n}": ("envelope", str(n)) for n in ENVELOPES},
    **{f"insight-{n}": ("insight", str(n)) for n in INSIGHT_PAGES},
}

# Legacy deck erratum: E07 points at L19; read the front of L17 instead.
ERRATUM_FROM, ERRATUM_WRONG, ERRATUM_RIGHT = "E07", "L19", "L17"

# The supply: nine piles; after each game add two presented piles, banish two supply piles,
# banish the unchosen presented piles [003:287-290].
SUPPLY_PILES = 9
UPGRADE_ADD = UPGRADE_BANISH = 2

# Life at the table: Gravehold 30, players 10, the nemesis from its mat [003:242].
DIFFICULTIES = pick(DIFFICULTY_WORDS, "standard", "beginner", "expert", "extinction")
# (player life, Gravehold life, change to the nemesis's life) [003:1462-1472].
DIFFICULTY_VALUES = {
    "standard": (10, 30, 0),
    "beginner": (12, 35, -10),
    "expert": (10, 30, 0),
    "extinction": (8, 25, 10),
}
INCREASED_DIFFICULTY = frozenset({"expert", "extinction"})
MAX_PLAYER_LIFE = max(values[0] for values in DIFFICULTY_VALUES.values())
MAX_GRAVEHOLD_LIFE = max(values[1] for values in DIFFICULTY_VALUES.values())
MAX_NEMESIS_LIFE = 200

RESULTS = pick(RESULT_WORDS, "win", "loss")

# Outside the campaign: a supply of 3 gems, 2 relics and 4 spells, at least one gem costing 3
# [003:312, 1379-1381].
CARD_TYPES = {"gem": _("Gem"), "relic": _("Relic"), "spell": _("Spell")}
DEFAULT_SUPPLY = {"gem": 3, "relic": 2, "spell": 4}
TIP_GEM_COST = 3
MAX_CARD_COST = 20

# Basic nemesis cards added to each tier by player count (G-AE-1: garbled in the seed; the
# published chart as a default the group can correct). NEMESIS_CHART[players] = (t1, t2, t3).
NEMESIS_CHART = {1: (1, 3, 7), 2: (3, 5, 7), 3: (5, 6, 7), 4: (8, 7, 7)}
TIERS = (1, 2, 3)
MAX_CHART_CELL = 30

# Colours for the characters (and their turn order cards).
COLOURS = pick(COLOUR_WORDS, "red", "white", "blue", "green", "yellow", "purple", "orange", "black")


def colour_pairs(colours: list[str]) -> list[list[int]] | None:
    """Four players: which seats share a two-colour turn order card. The cards pair colours,
    not seats: each player writes their name on the cards of their character's colour, and the
    rulebook's example card is Red/White [003:244, 1006-1008]. So the characters are taken in
    the order of COLOURS (red, white, blue …) and the first two share a card, as do the last
    two; with the first campaign's default colours that is seats 1+2 and 3+4."""
    if len(colours) != MAX_PLAYERS:
        return None
    order = list(COLOURS)
    seats = sorted(range(len(colours)), key=lambda seat: order.index(colours[seat]))
    return [sorted(seats[:2]), sorted(seats[2:])]


SIDES = {"front": _("Front"), "back": _("Back")}
MAGE_NOTES = {"upgrade": _("Upgrade"), "equipment": _("Equipment")}

# Lengths kept in the state.
NAME_LENGTH = 40
CARD_LENGTH = 60
TEXT_LENGTH = 500
MAX_ROWS = 2000
