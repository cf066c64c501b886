"""Many phones writing to one campaign at once: no server error, every acknowledged change is an
event, and the state is what a replay of the events gives. (The benchmark runs 8, 32 and 64
writers: tests/bench/bench_live.py.)"""

import pytest

from tests.journeys import busy_table, problems_after, write_at_once

pytestmark = pytest.mark.server


def test_twenty_four_writers_on_one_campaign_lose_nothing_and_get_no_server_error(site):
    owner, phones, campaign = busy_table(site.url, 24, "Crowded table")
    try:
        load = write_at_once(phones, campaign, taps_each=10)
        assert load.errors == []
        assert load.server_errors == 0, load.statuses
        assert load.acknowledged == 24 * 10, load.refusals
        assert problems_after(owner, campaign, load) == []
    finally:
        for phone in [owner, *phones]:
            phone.close()
