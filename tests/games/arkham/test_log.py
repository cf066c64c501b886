"""The campaign log: notes, counters, custom sections, and The Forgotten Age's supplies."""

from tests.games.arkham.helpers import (
    add_investigator,
    investigator,
    make_arkham,
    post,
    section,
    text,
)


def test_supplies_belong_to_the_forgotten_age(owner_client, owner):
    tfa = make_arkham(owner, "tfa")
    roland = add_investigator(owner_client, tfa)
    post(owner_client, tfa, "supply.add", investigator=roland, supply="provisions")
    post(owner_client, tfa, "supply.add", investigator=roland, supply="provisions")
    post(owner_client, tfa, "supply.add", investigator=roland, supply="rope")
    assert investigator(tfa, roland)["supplies"] == {"provisions": 2, "rope": 1}
    response = post(owner_client, tfa, "supply.add", investigator=roland, supply="rope")
    assert "Roland Banks already has Rope." in text(response)
    post(owner_client, tfa, "supply.use", investigator=roland, supply="provisions")
    assert investigator(tfa, roland)["supplies"] == {"provisions": 1, "rope": 1}
    page = text(owner_client.get(f"/c/{tfa.pk}/"))
    assert "Supplies (4 points; 10 to start with at this table)" in page
    zealot = make_arkham(owner)
    other = add_investigator(owner_client, zealot)
    response = post(owner_client, zealot, "supply.add", investigator=other, supply="rope")
    assert "This campaign has no supplies." in text(response)


def test_campaign_notes_are_written_crossed_out_and_restored(owner_client, ark):
    notes = section(ark, "Campaign Notes")["id"]
    region = f"tracker-{notes}"
    post(owner_client, ark, "notes.add", tracker=notes, text="Lita was forced to find others")
    [entry] = section(ark, "Campaign Notes")["entries"]
    post(owner_client, ark, "notes.cross", tracker=notes, item=entry["id"], region=region)
    page = text(owner_client.get(f"/c/{ark.pk}/"))
    assert '<span class="text crossed">Lita was forced to find others</span>' in page
    post(owner_client, ark, "notes.restore", tracker=notes, item=entry["id"], region=region)
    assert section(ark, "Campaign Notes")["entries"][0]["crossed"] is False


def test_named_counters_and_a_custom_section(owner_client, owner):
    ptc = make_arkham(owner, "ptc")
    doubt = section(ptc, "Doubt")["id"]
    post(owner_client, ptc, "counter.adjust", tracker=doubt, delta=1, region=f"tracker-{doubt}")
    assert section(ptc, "Doubt")["value"] == 1
    response = post(owner_client, ptc, "counter.adjust", tracker=doubt, delta=-2)
    assert "Doubt cannot go below 0." in text(response)
    post(
        owner_client, ptc, "tracker.add", kind="notes", name="Our house rules", region="add-section"
    )
    assert section(ptc, "Our house rules")["kind"] == "notes"
    page = text(owner_client.get(f"/c/{ptc.pk}/"))
    assert "Our house rules" in page and "Remove “Our house rules”" in page
    assert "Remove “Doubt”" not in page


def test_the_supplies_to_take_read_in_the_readers_language(owner_client, owner):
    tfa = make_arkham(owner, "tfa")
    add_investigator(owner_client, tfa)
    page = text(owner_client.get(f"/c/{tfa.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    assert '<option value="provisions">食料 (1)</option>' in page
    page = text(owner_client.get(f"/c/{tfa.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert '<option value="provisions">Provisions (1)</option>' in page


def test_the_add_a_section_form_speaks_only_of_the_kinds_it_offers(owner_client, ark):
    """Arkham's log sections are notes, counters and checklists: the items field's help is a
    checklist's, not the Any game's decks and turn trackers."""
    page = text(owner_client.get(f"/c/{ark.pk}/", HTTP_ACCEPT_LANGUAGE="ja"))
    form = page[page.index('id="add-section"') :]
    form = form[: form.index("</section>")]
    assert "項目（「、」区切り）" in form
    assert '<span class="help">チェックリストの場合：項目。</span>' in form
    assert "デッキ" not in form and "手番" not in form
