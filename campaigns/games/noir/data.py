"""Facts about Arkham Noir that the tracker needs: names, counts and the set-up's numbered
steps, in our own words. No card or rulebook text.

Copied from ``shared/spec/rules.md`` §4 (a digest of a fan's rules summary of Case 2; the
line numbers below are that file's) and ``shared/data/arkham_noir.json`` (component counts
from review pages, each cited there):

- Case 2 is *Called Forth by Thunder*, Case 1 *The Witch Cult Murders* (arkham_noir.json
  ``cases.case2.name``, ``cases.case1.name``).
- Set-up [rules.md:720-726]: six victims (one to the box unseen, five in the pile, two drawn
  as the first cases), a row of five clue cards, a hand of three, four storm cards.
- Case 1 has six clue types (arkham_noir.json ``cases.case1.clue_type_count``, from
  boardgamewikia.com's preview); Case 2's count is not known (``clue_type_count: null``), so
  the player sets it, six by default. Their names are not known either: the types are numbered.
- Case 1 has no storm or formula cards: Case 2 adds them (arkham_noir.json
  ``cases.case2.components_note``), so those rules are off for Case 1.
"""

from string import ascii_lowercase

from django.utils.translation import gettext_lazy as _

# In the boxes' order; a new campaign starts on Case 2, the case the rules digest describes
# (setup.py's initial).
CASES = {
    "case1": _("Case 1: The Witch Cult Murders"),
    "case2": _("Case 2: Called Forth by Thunder"),
}
CASE_SHORT = {"case1": _("Case 1"), "case2": _("Case 2")}
CLUE_TYPES = {"case1": 6, "case2": None}  # None: not in our sources
DEFAULT_CLUE_TYPES = 6

WIN_RULES = {
    "count": _("Five puzzle-piece cards in the Big Picture"),
    "distinct": _("Five puzzle-piece cards of different clue types in the Big Picture"),
}

# The set-up steps in order [rules.md:720-726, seed 004:9-19], each with the cases it belongs to;
# the page numbers the ones its case shows 1, 2, 3 … (the storm and formula cards are Case 2's).
SETUP_STEPS = [
    (_("Lay out the four set-up cards."), CASES.keys()),
    (_("Set the expert cards aside."), {"case1"}),
    (_("Set the formula cards and the expert cards aside."), {"case2"}),
    (
        _(
            "Shuffle the six victim cards: one goes back to the box unseen, five make the "
            "victim pile, and the top two are drawn face up as the first two cases."
        ),
        CASES.keys(),
    ),
    (_("Shuffle the clue deck and deal a row of five clue cards face up."), CASES.keys()),
    (_("Draw three clue cards as your hand."), CASES.keys()),
    (_("Shuffle the four storm cards."), {"case2"}),
]


def lettered[L](*labels: L) -> dict[str, L]:
    """Labels keyed a, b, c … in the order the rules letter them [rules.md:739-761]."""
    return dict(zip(ascii_lowercase, labels, strict=False))


# The turn's actions a)–e) and the end phase's steps a)–d).
ACTIONS = lettered(
    _("Add to hand"),
    _("Play it"),
    _("Discard, play from hand"),
    _("Discard, close a case"),
    _("Discard and pass"),
)
END_STEPS = lettered(
    _("Victory check"),
    _("Madness check"),
    _("Time-out check"),
    _("Refill the clue row"),
)

REASONS = {
    "big-picture": _("The Big Picture is complete."),
    "madness": _("Five or more cards in the madness area."),
    "timeout": _("The time-out pile reached five with no victim left to draw."),
    "deck": _("The clue deck ran out with no victim left to reveal."),
}

PILES = {
    "victims_left": _("Victims left"),
    "row": _("Clue row"),
    "hand": _("Hand"),
    "discard": _("Discard pile"),
    "timeout": _("Time-out pile"),
    "madness": _("Madness area"),
    "storms_left": _("Storm cards left"),
    "closed": _("Closed-case cards"),
    "formulas": _("Formula cards gained"),
}

COLUMN_COUNTS = {
    "cards": _("Cards played"),
    "hourglasses": _("Hourglasses"),
    "keys": _("Keys"),
    "keyholes": _("Keyholes"),
}
COLUMN_FLAGS = {
    "lightning": _("Lightning storm"),
    "flash": _("Flash card"),
    "master_key": _("Master key"),
}
SANITY_OUTCOMES = {
    "madness": _("Penalty: to the madness area"),
    "timeout": _("Hourglass: to the time-out pile"),
    "discard": _("Neither: to the discard pile"),
}
