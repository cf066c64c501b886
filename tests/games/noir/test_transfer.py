"""A campaign of Arkham Noir leaves as a file and comes back the same: every event replays
through the same checks a tap goes through (the log's dates included)."""

import json

import pytest

from campaigns.transfer import ImportRefused, export_campaign, import_campaign
from tests.factories import SAMPLE_POSTS
from tests.journeys import text


def test_a_whole_play_exports_and_imports_as_it_was(owner_client, owner, case):
    for action, data in SAMPLE_POSTS["noir"]:
        response = owner_client.post(f"/c/{case.pk}/do/{action}/", data)
        assert response.status_code == 302, (action, text(response)[-300:])
    case.refresh_from_db()
    assert case.state["log"][0]["result"] == "lost"
    again = import_campaign(json.dumps(export_campaign(case)).encode(), owner)
    assert again.state == case.state
    assert again.version == case.version


def test_a_file_with_a_sixth_card_in_the_row_is_refused(owner_client, owner, case):
    owner_client.post(f"/c/{case.pk}/do/noir.pile/", {"pile": "madness", "delta": 1})
    case.refresh_from_db()
    document = export_campaign(case)
    document["events"][0]["data"] = {"pile": "row", "delta": 1}  # rules.md:707
    document["state"]["play"]["row"] = 6
    document["state"]["play"]["madness"] = 0
    with pytest.raises(ImportRefused):
        import_campaign(json.dumps(document).encode(), owner)
