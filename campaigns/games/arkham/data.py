"""Facts about Arkham Horror: The Card Game that the module needs: counts and names only.

Copied from the project's data files (`shared/data/arkham_chaos_bags.json`, whose bags come from
community campaign data, and `shared/data/arkham_campaign_log.json`) and from the round structure
in `shared/spec/rules.md` §1c. No printed card or rulebook text: the step labels are our own
short English names for the framework steps.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop
from django_stubs_ext import StrOrPromise

from campaigns.engines.chaos import SYMBOLS, TOKENS
from campaigns.vocabulary import DIFFICULTY_WORDS, pick

DIFFICULTIES = pick(DIFFICULTY_WORDS, "easy", "standard", "hard", "expert")
# A scenario reference card has one side for Easy and Standard and one for Hard and Expert.
BANDS = {
    "easy": "easy-standard",
    "standard": "easy-standard",
    "hard": "hard-expert",
    "expert": "hard-expert",
}
BAND_LABELS = {"easy-standard": _("Easy / Standard"), "hard-expert": _("Hard / Expert")}

CUSTOM = "custom"

# The campaigns in the order the box art came out, then the custom one. Section kinds:
# "notes" are recorded phrases (each can be crossed out), "counter" a number from 0, "checklist"
# named items to tick. Every campaign also has Campaign Notes.
CAMPAIGNS: dict[str, dict] = {
    "notz": {
        "name": _("The Night of the Zealot"),
        "sections": [
            (gettext_noop("Cultists We Interrogated"), "notes", []),
            (gettext_noop("Cultists Who Got Away"), "notes", []),
        ],
    },
    "dwl": {
        "name": _("The Dunwich Legacy"),
        "sections": [(gettext_noop("Sacrificed to Yog-Sothoth"), "notes", [])],
    },
    "ptc": {
        "name": _("The Path to Carcosa"),
        "sections": [
            (gettext_noop("VIPs Interviewed"), "notes", []),
            (gettext_noop("VIPs Slain"), "notes", []),
            (gettext_noop("Doubt"), "counter", []),
            (gettext_noop("Conviction"), "counter", []),
            (gettext_noop("Chasing the Stranger"), "counter", []),
        ],
    },
    "tfa": {
        "name": _("The Forgotten Age"),
        "sections": [(gettext_noop("Yig's Fury"), "counter", [])],
        "supplies": True,
    },
    "tcu": {
        "name": _("The Circle Undone"),
        "sections": [
            (gettext_noop("Mementos Discovered"), "notes", []),
            (
                gettext_noop("Missing Persons"),
                "checklist",
                ["Gavriella Mizrah", "Jerome Davids", "Penny White", "Valentino Rivas"],
            ),
        ],
    },
    "tdea": {
        "name": _("The Dream-Eaters (A): The Dream-Quest"),
        "sections": [(gettext_noop("Evidence of Kadath"), "counter", [])],
    },
    "tdeb": {
        "name": _("The Dream-Eaters (B): The Web of Dreams"),
        "sections": [(gettext_noop("Steps of the Bridge"), "counter", [])],
    },
    "tic": {
        "name": _("The Innsmouth Conspiracy"),
        "sections": [
            (gettext_noop("Memories Recovered"), "notes", []),
            (gettext_noop("Possible Suspects"), "notes", []),
            (gettext_noop("Possible Hideouts"), "notes", []),
        ],
    },
    "eoe": {
        "name": _("Edge of the Earth"),
        "sections": [
            (gettext_noop("Locations Revealed"), "notes", []),
            (gettext_noop("Supplies Recovered"), "notes", []),
            (gettext_noop("Memories Discovered"), "notes", []),
            (gettext_noop("Memories Banished"), "notes", []),
            (gettext_noop("Seals Placed"), "notes", []),
            (gettext_noop("Seals Recovered"), "notes", []),
            (gettext_noop("Expedition Team"), "notes", []),
        ],
    },
    "tskc": {
        "name": _("The Scarlet Keys"),
        "sections": [
            (gettext_noop("Keys"), "notes", []),
            (gettext_noop("Time Passed"), "counter", []),
            (gettext_noop("Unlocked Locations"), "notes", []),
        ],
    },
    "fhv": {
        "name": _("The Feast of Hemlock Vale"),
        "sections": [
            (gettext_noop("Day"), "counter", []),
            (gettext_noop("Areas Surveyed"), "notes", []),
            (gettext_noop("Relationship: Mother Rachel"), "counter", []),
            (gettext_noop("Relationship: Leah Atwood"), "counter", []),
            (gettext_noop("Relationship: Simeon Atwood"), "counter", []),
            (gettext_noop("Relationship: William Hemlock"), "counter", []),
            (gettext_noop("Relationship: River Hawthorne"), "counter", []),
            (gettext_noop("Relationship: Gideon Mizrah"), "counter", []),
            (gettext_noop("Relationship: Judith Park"), "counter", []),
            (gettext_noop("Relationship: Theo Peters"), "counter", []),
        ],
    },
    "tdc": {
        "name": _("The Drowned City"),
        "sections": [
            (gettext_noop("Alien Glyphs"), "notes", []),
            (gettext_noop("Artifacts Earned"), "notes", []),
            (gettext_noop("Locations of R'lyeh"), "notes", []),
            (gettext_noop("Flooded Neighborhoods"), "notes", []),
        ],
    },
    "boa": {"name": _("Brethren of Ash"), "sections": []},
    CUSTOM: {"name": _("A custom campaign (empty bag)"), "sections": []},
}
CAMPAIGN_NOTES = gettext_noop("Campaign Notes")

# Starting chaos bags by campaign and difficulty (before any prologue changes), as counts in
# the order of COLUMNS: +1 0 −1 −2 −3 −4 −5 −6 −7 −8, skull cultist tablet elder thing,
# auto-fail, elder sign, bless curse frost.
COLUMNS = TOKENS
_BAG_TABLE: dict[str, dict[str, tuple[int, ...]]] = {
    "notz": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 1, 1, 0, 1, 1, 0, 0, 0),
    },
    "dwl": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 1, 0, 0, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 1, 0, 0, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 1, 0, 0, 1, 1, 0, 0, 0),
    },
    "ptc": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 3, 0, 0, 0, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 3, 0, 0, 0, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 3, 0, 0, 0, 1, 1, 0, 0, 0),
    },
    "tfa": {
        "easy": (2, 3, 2, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1, 1, 0, 0, 0),
        "standard": (1, 3, 1, 2, 1, 0, 1, 0, 0, 0, 2, 0, 0, 1, 1, 1, 0, 0, 0),
        "hard": (1, 2, 1, 1, 2, 1, 0, 1, 0, 0, 2, 0, 0, 1, 1, 1, 0, 0, 0),
        "expert": (0, 1, 1, 2, 2, 2, 0, 1, 0, 1, 2, 0, 0, 1, 1, 1, 0, 0, 0),
    },
    "tcu": {
        "easy": (2, 3, 2, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 2, 2, 1, 1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0),
        "hard": (0, 2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 1, 1, 0, 1, 0, 1, 2, 0, 0, 0, 1, 1, 0, 0, 0),
    },
    "tdea": {
        "easy": (2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0, 1, 2, 0, 1, 1, 0, 0, 0),
        "hard": (0, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 1, 2, 0, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 1, 2, 1, 1, 0, 1, 0, 1, 2, 0, 1, 1, 0, 0, 0),
    },
    "tdeb": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 1, 0, 2, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 1, 0, 2, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 1, 0, 2, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 1, 0, 2, 1, 1, 0, 0, 0),
    },
    "tic": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 2, 2, 2, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 2, 2, 2, 1, 1, 0, 0, 0),
    },
    "eoe": {
        "easy": (3, 2, 3, 2, 0, 0, 0, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 1),
        "hard": (0, 2, 2, 2, 1, 2, 1, 0, 0, 0, 2, 1, 1, 0, 1, 1, 0, 0, 2),
        "expert": (0, 1, 1, 2, 1, 2, 1, 0, 1, 0, 2, 1, 1, 0, 1, 1, 0, 0, 3),
    },
    "tskc": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 0, 1, 1, 1, 1, 0, 0, 0),
    },
    "fhv": {
        "easy": (2, 3, 3, 2, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 2, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 0, 2, 0, 1, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 1, 2, 1, 1, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0),
    },
    "tdc": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 0, 1, 1, 1, 1, 0, 0, 0),
    },
    "boa": {
        "easy": (2, 3, 3, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "standard": (1, 2, 3, 2, 1, 1, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "hard": (0, 3, 2, 2, 2, 1, 1, 0, 0, 0, 2, 0, 1, 1, 1, 1, 0, 0, 0),
        "expert": (0, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 0, 1, 1, 1, 1, 0, 0, 0),
    },
}
BAGS: dict[str, dict[str, dict[str, int]]] = {
    campaign: {
        difficulty: {t: n for t, n in zip(COLUMNS, row, strict=True) if n}
        for difficulty, row in rows.items()
    }
    for campaign, rows in _BAG_TABLE.items()
}


# Where the sources disagree, or the bag changes before the first scenario: say so at creation.
CAVEATS: dict[tuple[str, str | None], StrOrPromise] = {
    ("ptc", "expert"): _("One source has a third −3 token in this bag."),
    ("fhv", "expert"): _("Sources disagree: a −6 and a −7, or two −6."),
    ("fhv", None): _("This campaign starts without an auto-fail token; its prologue adds one."),
    ("tdc", "standard"): _("This bag is reported to differ from the printed guide."),
    ("tfa", None): _("The prologue changes this bag."),
    ("tcu", None): _("The prologue changes this bag."),
}

TOKEN_LABELS: dict[str, StrOrPromise] = {
    "+1": "+1",
    "0": "0",
    "-1": "−1",
    "-2": "−2",
    "-3": "−3",
    "-4": "−4",
    "-5": "−5",
    "-6": "−6",
    "-7": "−7",
    "-8": "−8",
    "skull": _("Skull"),
    "cultist": _("Cultist"),
    "tablet": _("Tablet"),
    "elder_thing": _("Elder Thing"),
    "auto_fail": _("Auto-fail"),
    "elder_sign": _("Elder Sign"),
    "bless": _("Bless"),
    "curse": _("Curse"),
    "frost": _("Frost"),
}
TOKEN_ICONS = {
    "+1": "plus-1",
    "0": "zero",
    **{f"-{n}": f"minus-{n}" for n in range(1, 9)},
    "skull": "skull",
    "cultist": "cultist",
    "tablet": "tablet",
    "elder_thing": "elder-thing",
    "auto_fail": "auto-fail",
    "elder_sign": "elder-sign",
    "bless": "bless",
    "curse": "curse",
    "frost": "frost",
}
assert set(TOKEN_LABELS) == set(TOKENS) == set(TOKEN_ICONS)

SCENARIO_SYMBOLS = tuple(s for s in SYMBOLS if s != "elder_sign")  # the scenario card's four
POOL_TOKENS = ("bless", "curse")  # they come from and go back to the pool

# How many of each token the physical game provides, in the bag and sealed together: a bag
# cannot hold more. From `shared/data/arkham_campaign_log.json` "token_limits" ("bless and
# curse at most 10 each including sealed; frost at most 8").
TOKEN_LIMITS = {
    "+1": 3,
    "0": 4,
    "-1": 5,
    "-2": 4,
    "-3": 3,
    "-4": 2,
    "-5": 2,
    "-6": 2,
    "-7": 1,
    "-8": 1,
    "skull": 4,
    "cultist": 4,
    "tablet": 4,
    "elder_thing": 4,
    "auto_fail": 2,
    "elder_sign": 2,
    "bless": 10,
    "curse": 10,
    "frost": 8,
}
assert set(TOKEN_LIMITS) == set(TOKENS)

# The Forgotten Age: supplies, their cost in supply points, and whether one can hold several.
SUPPLIES = {
    "provisions": (_("Provisions"), 1, True),
    "medicine": (_("Medicine"), 2, True),
    "rope": (_("Rope"), 3, False),
    "blanket": (_("Blanket"), 2, False),
    "canteen": (_("Canteen"), 2, False),
    "torches": (_("Torches"), 3, False),
    "compass": (_("Compass"), 2, False),
    "map": (_("Map"), 3, False),
    "binoculars": (_("Binoculars"), 2, False),
    "chalk": (_("Chalk"), 2, False),
    "pendant": (_("Pendant"), 1, False),
}
SUPPLY_POINTS = {1: 10, 2: 7, 3: 5, 4: 4}

# The round (rules.md §1c): phases and their framework steps, with our own short labels.
PHASES = {
    "1": _("Mythos phase"),
    "2": _("Investigation phase"),
    "3": _("Enemy phase"),
    "4": _("Upkeep phase"),
}
STEPS = [
    ("1.1", _("The round begins")),
    ("1.2", _("Put 1 doom on the agenda")),
    ("1.3", _("Compare doom with the threshold")),
    ("1.4", _("Each investigator draws an encounter card")),
    ("1.5", _("The mythos phase ends")),
    ("2.1", _("The investigation phase begins")),
    ("2.2", _("The next investigator's turn begins")),
    ("2.2.1", _("Take up to 3 actions")),
    ("2.2.2", _("The turn ends")),
    ("2.3", _("The investigation phase ends")),
    ("3.1", _("The enemy phase begins")),
    ("3.2", _("Hunter enemies move")),
    ("3.3", _("Engaged enemies attack")),
    ("3.4", _("The enemy phase ends")),
    ("4.1", _("The upkeep phase begins")),
    ("4.2", _("Reset actions")),
    ("4.3", _("Ready exhausted cards")),
    ("4.4", _("Draw 1 card and gain 1 resource each")),
    ("4.5", _("Discard down to 8 cards")),
    ("4.6", _("The round ends")),
]
STEP_CODES = [code for code, _label in STEPS]
FIRST_STEP = "2.1"  # round 1 has no mythos phase
