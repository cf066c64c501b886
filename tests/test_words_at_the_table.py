"""Words and small faults at the table (issue 21): no two tabs of a campaign read the same in any
language (Simplified Chinese read 设置 twice: set-up and settings); a count reads in its
language's plural form ("1 successes" no more); an empty list of scenario results is no numbered
list ("1. No scenario recorded yet."); the Aeon's End chart's cells name their player count in
its plural form; a live refresh carries the page's title (a campaign renamed on another phone);
a list of names reads with the reader's comma (、 in Japanese)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.games import GAMES
from campaigns.games.eldritch.rolls import describe_roll
from tests import factories
from tests.factories import SAMPLE_SETUPS, client_for
from tests.journeys import text

LANGUAGES = ("en", "ja", "zh-hans", "zh-hant")


@pytest.mark.parametrize("game", list(GAMES))
def test_no_two_tabs_of_a_campaign_read_the_same_in_any_language(db, game):
    owner = factories.user("olive")
    campaign = factories.campaign(game, owner=owner, setup=SAMPLE_SETUPS.get(game))
    client = client_for(owner)
    for language in LANGUAGES:
        client.cookies["django_language"] = language
        page = text(client.get(reverse("campaigns:campaign", args=[campaign.pk])))
        tabs = re.search(r'<ul class="tabs">(.*?)</ul>', page, re.S).group(1)
        names = [html.unescape(n) for n in re.findall(r"<a [^>]*>([^<]+)</a>", tabs)]
        assert len(names) == len(set(names)) >= 4, (language, names)


def test_a_roll_reads_each_count_in_its_plural_form():
    one = {"dice": 1, "faces": [5], "success_on": 5}
    four = {"dice": 4, "faces": [1, 2, 5, 3], "success_on": 5}
    assert describe_roll(one) == "Rolled 1 die: 5, 1 success"
    assert describe_roll(four) == "Rolled 4 dice: 1 2 5 3, 1 success"
    assert describe_roll({**four, "faces": [6, 5, 1, 2]}) == "Rolled 4 dice: 6 5 1 2, 2 successes"
    with translation.override("ja"):
        assert describe_roll(four) == "ダイス4個を振りました：1 2 5 3、成功1"
    with translation.override("zh-hans"):
        assert describe_roll(one) == "掷了 1 颗骰子：5，1 个成功"


def test_no_scenario_recorded_is_no_numbered_list(db):
    owner = factories.user("olive")
    campaign = factories.campaign("arkham", owner=owner)
    page = text(client_for(owner).get(reverse("campaigns:campaign", args=[campaign.pk])))
    assert "No scenario recorded yet." in page
    assert not re.search(r"<li[^>]*>\s*No scenario recorded yet", page)
    assert '<ol class="results">' not in page


def test_the_nemesis_chart_names_one_player_in_the_singular(db):
    owner = factories.user("olive")
    campaign = factories.campaign("aeonsend", owner=owner)
    url = reverse("campaigns:game-page", args=[campaign.pk, "outside"])
    page = html.unescape(text(client_for(owner).get(url)))
    assert "Tier 1, 1 player<" in page or "Tier 1, 1 player " in page
    assert "1 players" not in page
    assert "Tier 2, 3 players" in page


def test_a_live_refresh_carries_the_title_of_a_renamed_campaign(db):
    owner = factories.user("olive")
    campaign = factories.campaign("any", owner=owner, events=[("campaign.rename", {"name": "Q"})])
    refresh = client_for(owner).get(
        reverse("campaigns:campaign", args=[campaign.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_X_LIVE_REFRESH="true",
    )
    assert re.search(r"<title>\s*Q · Companion\s*</title>", text(refresh))


def test_a_list_of_names_reads_with_the_readers_comma():
    pick = GAMES["eldritch"].commands["eh.pick"]
    payload = {"ancient_one": "Azathoth", "investigators": ["Akachi Onyele", "Jim Culver"]}
    assert "Akachi Onyele, Jim Culver" in pick.words(payload)
    with translation.override("ja"):
        assert "Akachi Onyele、Jim Culver" in pick.words(payload)
        assert ", " not in pick.words(payload)


def test_words_written_over_the_payload_read_in_the_readers_language():
    """A command may say its history line as a lazy translation whose placeholders are the
    payload's keys: filled from the payload, read in the reader's language; a key the payload
    lacks (an imported file's) reads "?" instead of failing."""
    rename = GAMES["noir"].commands["campaign.rename"]
    closed = GAMES["noir"].commands["noir.close"]
    assert rename.words({"name": "Eve"}) == "Renamed the campaign to “Eve”"
    assert rename.words({}) == "Renamed the campaign to “?”"
    with translation.override("ja"):
        assert rename.words({"name": "Eve"}) == "キャンペーン名を「Eve」に変更"
        assert closed.words({}) == "アクションd：事件を1つ終了"
