"""A text that shows nothing is no text: a name, a note or a line made only of zero-width
spaces, direction marks, spaces, fillers, blanks, variation selectors or combining marks with
nothing to sit on is refused where an empty one is, and kept as nothing where the field may be
left empty (campaigns/fields.py's TextField, campaigns/words.py's `visible`). A phone's keyboard
or a pasted name can carry such characters; a member "named" so would be a blank in every list.
"""

from __future__ import annotations

import random

import pytest
from django import forms

from campaigns.games import GAMES
from campaigns.models import Campaign, Membership
from campaigns.words import visible
from tests import factories
from tests.factories import SAMPLE_POSTS, SAMPLE_SETUPS, sample_data
from tests.journeys import text

# A zero-width space, a word joiner, a left-to-right mark, a space and a right-to-left override.
UNSEEN = "\u200b\u2060\u200e \u202e"
REQUIRED = "This field is required."

# Texts that show nothing, each short enough for every text field (a few hold three characters).
NOTHING_TO_SEE = [
    UNSEEN,
    "\u3164",  # Hangul filler
    "\uffa0",  # half-width Hangul filler
    "\u115f\u1160",  # Hangul leading and vowel fillers: an empty syllable
    "\u2800",  # braille pattern blank
    "\u0301",  # a combining acute accent with no letter under it
    " \u20dd ",  # an enclosing circle around a space
    "\u0903",  # a spacing mark (Devanagari visarga) with no letter before it
    "\ufe0f",  # variation selector-16
    "\U000e0100",  # variation selector-17
    "\U000e0001\U000e0041",  # a language tag and a tag letter
    "\u180e\u034f",  # Mongolian vowel separator, combining grapheme joiner
    "\u17b4\u17b5",  # Khmer inherent vowels
    "\u2061\u2064",  # invisible function application, invisible plus
    "\u206a\u206f",  # deprecated format characters
    "\U0001d159",  # musical null notehead
    "\U0001d173\U0001d17a",  # musical beam and phrase marks
    "\u00ad\ufeff",  # soft hyphen, byte order mark
    "\u2065\ufff0",  # unassigned, but ignorable by default (Unicode reserves them so)
    "\u3000",  # ideographic space
]

# The kinds of text field each game's sample play tries (Noir's victim name is its only one).
KINDS = {"noir": {"required"}}


@pytest.mark.sweep
@pytest.mark.parametrize("game", list(GAMES))
def test_every_text_field_of_every_command_takes_one_that_shows_nothing_as_empty(db, game):
    owner = factories.user("olive")
    campaign = factories.campaign(game, owner=owner, setup=SAMPLE_SETUPS.get(game))
    commands = GAMES[game].commands
    required = optional = 0
    rng = random.Random(12)  # the sample plays' draws, the same every run
    for action, post in SAMPLE_POSTS[game]:
        data, _made = sample_data(campaign, owner, post, rng)
        for name, field in commands[action].form().fields.items():
            if not isinstance(field, forms.CharField) or field.widget.is_hidden:
                continue
            if field.required:
                required += 1
            else:
                optional += 1
            for nothing in NOTHING_TO_SEE:
                form = commands[action].form({**data, name: nothing})
                said = (action, name, nothing.encode("unicode_escape"))
                if field.required:
                    assert not form.is_valid() and name in form.errors, said
                else:
                    assert not form.is_valid() or not form.cleaned_data.get(name), said
        form = commands[action].form(data)
        assert form.is_valid(), (action, form.errors)
        campaign.apply(action, form.cleaned_data, owner, rng=rng)
    kinds = {"required"} if required else set()
    kinds |= {"optional"} if optional else set()
    assert kinds == KINDS.get(game, {"required", "optional"}), "the sample plays changed"


@pytest.mark.parametrize("nothing", NOTHING_TO_SEE)
def test_a_text_of_blanks_fillers_or_marks_with_nothing_under_them_shows_nothing(nothing):
    assert not visible(nothing)
    assert not visible(f" {nothing}\u200b{nothing} ")


@pytest.mark.parametrize(
    "name",
    [
        "e\u0301",  # é written as e and a combining acute accent
        "\u0301e",  # a stray accent before a letter: the letter shows
        "Zoë",
        "アーカムの夜",
        "张伟",
        "張偉",
        "\ud55c\uae00",  # Hangul syllables
        "\u1100\u1161",  # a Hangul syllable written as its two letters
        "\u3164\u1100\u1161",  # a filler, then letters
        "\u0928\u092e\u0938\u094d\u0924\u0947",  # Devanagari, marks on its letters
        "\u0e2a\u0e38\u0e02",  # Thai, a vowel mark on a consonant
        "\U0001f44d\U0001f3fd",  # thumbs up, medium skin tone
        "\u2764\ufe0f",  # red heart with its emoji variation selector
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # a flag
        "\u2800a",  # a braille blank beside a letter
        "\u2801",  # a braille dot
        "\u0600",  # the Arabic number sign: a format character that is drawn
        "0",
        "·",
    ],
)
def test_a_text_with_something_to_see_is_visible(name):
    assert visible(name)
    assert visible(f"\u200b {name} \ufe0f")


@pytest.mark.parametrize("nothing", ["", "\u3164", "\u0301", "\u2800"])
def test_a_campaign_named_with_fillers_or_lone_marks_is_refused(db, nothing):
    client = factories.client_for(factories.user("olive"))
    response = client.post("/new/any/", {"name": nothing, "counters": "Doom 0 12"})
    assert response.status_code == 422
    assert REQUIRED in text(response)
    assert not Campaign.objects.exists()


def test_a_campaign_named_with_nothing_to_see_is_refused_and_not_created(db):
    client = factories.client_for(factories.user("olive"))
    response = client.post("/new/any/", {"name": UNSEEN, "counters": "Doom 0 12"})
    assert response.status_code == 422
    assert REQUIRED in text(response)
    assert not Campaign.objects.exists()


def test_joining_under_a_name_that_shows_nothing_is_refused(db):
    campaign = factories.make_campaign(factories.user("olive"))
    joiner = factories.client_for(factories.user("fern"))
    response = joiner.post(f"/join/{campaign.invite_token}/", {"display_name": UNSEEN})
    assert response.status_code == 422
    assert REQUIRED in text(response)
    assert not Membership.objects.filter(campaign=campaign, user__username="fern").exists()


@pytest.mark.parametrize(
    ("field", "line"),
    [
        ("counters", "\u200b 0 12"),
        ("checklists", "\u200b\u200e: A, B"),
        ("counters", "\u3164 0 12"),
        ("checklists", "\u0301\ufe0f: A, B"),
    ],
)
def test_a_set_up_line_whose_name_shows_nothing_needs_a_name(db, field, line):
    client = factories.client_for(factories.user("olive"))
    response = client.post("/new/any/", {"name": "Nights", field: f"Doom 0 12\n{line}"})
    assert response.status_code == 422
    assert f"“{line}” needs a name." in text(response)
    assert not Campaign.objects.exists()


def test_a_deck_card_whose_name_shows_nothing_needs_a_name(db):
    owner = factories.user("olive")
    campaign = factories.make_campaign(owner)
    before = (campaign.version, campaign.state)
    response = factories.client_for(owner).post(
        f"/c/{campaign.pk}/do/tracker.add/",
        {"kind": "deck", "name": "Deck", "items": "Green×2, \u200b×3"},
    )
    assert response.status_code == 422
    assert "“\u200b×3” needs a name." in text(response)
    campaign.refresh_from_db()
    assert (campaign.version, campaign.state) == before
