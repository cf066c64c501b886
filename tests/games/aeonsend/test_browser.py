"""Aeon's End: Legacy journeys in real Chromium at phone size (390×844), two phones at the table."""

import re
import threading

import pytest
from playwright.sync_api import Page, expect

from tests.games.aeonsend.helpers import TWO_PLAYER_POST
from tests.journeys import (
    Phone,
    no_sideways_scroll,
    post_form,
    shot,
    shot_of,
    sign_up,
    small_tap_targets,
)


def tab(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name=name).click()


@pytest.mark.browser
def test_a_legacy_campaign_at_the_table_on_two_phones(phones):
    owner, friend = phones
    sign_up(owner, "gravekeeper")

    # Create a two-player campaign.
    owner.get_by_role("link", name="New campaign").click()
    owner.get_by_role("link", name=re.compile("Aeon's End: Legacy")).click()
    owner.get_by_label("Campaign name").fill("The Breach")
    # The form shows one fieldset per player, as many as the count says.
    players = owner.locator("fieldset.ae-player-fields")
    owner.get_by_label("Number of players").select_option("3")
    expect(players.nth(2)).to_be_visible()
    expect(players.nth(3)).to_be_hidden()
    owner.get_by_label("Number of players").select_option("2")
    expect(players.nth(2)).to_be_hidden()
    for number, (player, character) in enumerate([("Kim", "Adelheim"), ("Lou", "Brama")], 1):
        owner.locator(f'[name="p{number}_player"]').fill(player)
        owner.locator(f'[name="p{number}_character"]').fill(character)
        owner.locator(f'[name="p{number}_mat"]').fill(str(number))
    shot(owner, "aeonsend-new")
    no_sideways_scroll(owner)
    owner.get_by_role("button", name="Create the campaign").click()
    expect(owner.get_by_role("heading", name="The Breach", exact=True)).to_be_visible()
    expect(owner.get_by_role("heading", name="At the beginning of Chapter 1")).to_be_visible()
    shot(owner, "aeonsend-table")
    no_sideways_scroll(owner)
    assert small_tap_targets(owner) == []

    # A friend joins through the invitation.
    tab(owner, "Members")
    invite = owner.locator(".url").inner_text()
    friend.goto(invite)
    friend.get_by_label("Your name at the table").fill("Lou")
    friend.get_by_role("button", name="Join").click()
    expect(friend.get_by_role("heading", name="The Breach", exact=True)).to_be_visible()

    # Draw turn order cards on one phone; the other sees each one, through a reshuffle.
    tab(owner, "Turn order")
    tab(friend, "Turn order")
    expect(friend.get_by_text("Draw the first card to see who goes first.")).to_be_visible()
    for draw in range(1, 8):
        owner.get_by_role("button", name="Draw the next turn").click()
        current = owner.locator("#deck .ae-current")
        expect(current).to_have_attribute("data-draw", f"{1 + draw // 7}-{(draw - 1) % 6 + 1}")
        marker = current.get_attribute("data-draw")
        card = owner.locator("#deck .ae-current-card").inner_text()
        expect(friend.locator("#deck .ae-current")).to_have_attribute("data-draw", marker)
        expect(friend.locator("#deck .ae-current-card")).to_have_text(card)
        if draw == 6:
            expect(friend.get_by_text("the next draw shuffles all six cards")).to_be_visible()
            shot(friend, "aeonsend-turns-empty")
    expect(friend.get_by_role("heading", name="Turn order · round 2")).to_be_visible()
    expect(friend.get_by_text("5 cards in the deck")).to_be_visible()
    assert "pool" not in friend.content()
    shot(owner, "aeonsend-turns")
    no_sideways_scroll(friend)
    assert small_tap_targets(owner) == []

    # Undo the last draw from the friend's phone: back to round 1 on both.
    friend.locator("#undo-bar").get_by_role("button", name="Undo").click()
    expect(owner.get_by_role("heading", name="Turn order · round 1")).to_be_visible()
    expect(owner.get_by_text("0 cards in the deck")).to_be_visible()

    # Start a game and deal some damage.
    owner.get_by_label("Nemesis", exact=True).fill("Maelstrom")
    owner.get_by_label("Its life, from its mat").fill("40")
    owner.get_by_role("button", name="Start", exact=True).click()
    expect(owner.get_by_role("heading", name=re.compile("against Maelstrom"))).to_be_visible()
    owner.get_by_role("button", name="Brama minus one").click()
    expect(owner.get_by_label("Brama life")).to_contain_text("9/10")
    expect(friend.get_by_label("Brama life")).to_contain_text("9/10")
    shot(owner, "aeonsend-life")
    no_sideways_scroll(owner)

    # Record a game in the score chart; a negative life is refused next to its field.
    tab(owner, "Score chart")
    form = owner.locator("#score-add")
    expect(form.get_by_label("Nemesis", exact=True)).to_have_value("Maelstrom")
    form.get_by_label("Win").check()
    form.get_by_label("Gravehold's life left").fill("-2")
    form.get_by_label("Gravehold's life left").evaluate("el => el.removeAttribute('min')")
    form.get_by_role("button", name="Add the row").click()
    # The message sits next to the field, which keeps what was typed.
    expect(form.get_by_role("alert")).to_have_text("Life left cannot be negative.")
    expect(form.get_by_label("Gravehold's life left")).to_have_value("-2")
    expect(owner.locator("#scores")).to_contain_text("No games recorded yet.")
    shot(owner, "aeonsend-score-refused")
    form.get_by_label("Gravehold's life left").fill("14")
    form.get_by_label("The nemesis's life left").fill("0")
    form.get_by_label("Rounds").fill("8")
    form.get_by_role("button", name="Add the row").click()
    expect(owner.locator("#scores")).to_contain_text("#1 · Maelstrom · Win")
    expect(owner.locator("#score-charts svg")).to_have_count(2)
    expect(owner.locator("#score-charts")).to_contain_text("1 game: 1 won, 0 lost.")
    shot(owner, "aeonsend-chart")
    no_sideways_scroll(owner)

    # Move on to the end of Chapter 2 and apply the stickers due, in one step.
    tab(owner, "Table")
    for point in ("end of Chapter 1", "beginning of Chapter 2", "end of Chapter 2"):
        owner.get_by_role("button", name=f"Move on to the {point}").click()
        expect(owner.get_by_role("heading", name=f"At the {point}")).to_be_visible()
    chapter = owner.locator("#chapter")
    for letter in "ANOQY":
        expect(chapter.get_by_label(f"Sticker {letter}")).to_be_checked()
    expect(chapter.get_by_label("Sticker S")).not_to_be_checked()
    shot(owner, "aeonsend-stickers-due")
    chapter.get_by_role("button", name="Apply the ticked stickers").click()
    expect(chapter.get_by_label("Sticker A")).to_have_count(0)
    expect(owner.locator("#undo-bar")).to_contain_text("Applied the stickers A, N, O, Q, Y")
    tab(friend, "Stickers & seals")
    for letter in "ANOQY":
        expect(friend.locator(f"#sticker-{letter.lower()} .ae-letter")).to_have_class(
            re.compile("ae-applied")
        )
    expect(friend.locator("#sticker-s .ae-letter")).not_to_have_class(re.compile("ae-applied"))
    shot(friend, "aeonsend-legacy")
    no_sideways_scroll(friend)

    # Banish a card, then find it in the list.
    banished = owner.locator("#banished")
    banished.get_by_label("Card (name or number)").fill("Crystal")
    banished.get_by_label("Why").fill("flawed")
    banished.get_by_role("button", name="Banish", exact=True).click()
    expect(banished.locator(".ae-banished")).to_contain_text("Crystal")
    banished.get_by_label("Card (name or number)").fill("Spark")
    banished.get_by_role("button", name="Banish", exact=True).click()
    expect(owner.locator("#banished .ae-banished")).to_contain_text("Spark")
    expect(owner.locator("#undo-bar")).to_contain_text("Banished “Spark”")
    owner.get_by_placeholder("Find a banished card").fill("cry")
    owner.get_by_role("button", name="Find").click()
    expect(owner.locator("#banished .ae-banished li")).to_have_count(1)
    expect(owner.locator("#banished .ae-banished")).to_contain_text("Crystal")
    assert "q=cry" in owner.url
    shot(owner, "aeonsend-banished")
    no_sideways_scroll(owner)
    tab(friend, "Table")
    expect(friend.locator("#banished .ae-banished")).to_contain_text("Spark")

    # The other pages look right at phone size too.
    tab(owner, "Outside")
    expect(owner.get_by_role("heading", name="Nemesis deck")).to_be_visible()
    shot(owner, "aeonsend-outside")
    no_sideways_scroll(owner)


@pytest.mark.server
def test_the_live_stream_carries_versions_only(site):
    """The stream tells a phone that something changed, never what: no card, no order."""
    owner = Phone(site.url)
    owner.signup("streamer")
    response = owner.post(
        "/new/aeonsend/",
        {"name": "Stream", **TWO_PLAYER_POST},
    )
    assert response.status_code == 302, response.text
    campaign = int(re.search(r"/c/(\d+)/", response.headers["location"]).group(1))
    lines: list[str] = []

    def listen() -> None:
        with owner.http.stream("GET", f"/c/{campaign}/stream/?v=0", timeout=15) as stream:
            for line in stream.iter_lines():
                lines.append(line)
                if '"version": 3' in line:
                    return

    listener = threading.Thread(target=listen)
    listener.start()
    for _ in range(3):
        assert owner.post(f"/c/{campaign}/do/ae.draw/", {}).status_code == 302
    listener.join(timeout=20)
    data = [line for line in lines if line.startswith("data:")]
    assert data and all(re.fullmatch(r'data: \{"version": \d+\}', line) for line in data)
    assert not any(name in "".join(lines) for name in ("Adelheim", "Brama", "Nemesis"))
    owner.close()


@pytest.mark.browser
def test_a_lived_in_campaign_reads_well_on_a_phone(phone):
    """Ten games, four players, opened seals and a rolled supply: every page at 390 px."""
    page = phone
    sign_up(page, "veteran")
    setup = {"name": "Long haul", "player_count": "4"}
    names = [("Kim", "Adelheim"), ("Lou", "Brama"), ("Max", "Cassandra"), ("Noa", "Dezmodia")]
    for number, (player, character) in enumerate(names, 1):
        setup.update(
            {
                f"p{number}_player": player,
                f"p{number}_character": character,
                f"p{number}_mat": str(number),
                f"p{number}_side": "back" if number % 2 else "front",
                f"p{number}_colour": ["red", "blue", "green", "yellow"][number - 1],
            }
        )
    post_form(page, "/new/aeonsend/", setup)
    page.goto("/")
    page.get_by_role("link", name=re.compile("Long haul")).click()
    base = page.url.split("/c/")[1].split("/")[0]
    act = f"/c/{base}/do/"
    for game in range(1, 11):
        win = game % 3 != 0
        post_form(
            page,
            act + "ae.score/",
            {
                "date": f"2024-0{1 + game // 4}-{10 + game}",
                "chapter": str(1 + game // 3),
                "nemesis": ["Maelstrom", "Haze Fiend", "Bladius"][game % 3],
                "result": "win" if win else "loss",
                "gravehold": str(game * 3 % 31) if win else "0",
                "nemesis_life": "0" if win else str(5 + game * 2),
                "life_1": "3",
                "life_2": "0",
                "life_3": "7",
                "life_4": "10",
                "rounds": str(6 + game % 4),
                "region": "score-add",
            },
        )
    for key in ("stop-Ia", "stop-Ib", "stop-Ic", "stop-L", "box-A", "envelope-1"):
        post_form(page, act + "ae.seal/", {"key": key, "opened": "true"})
    post_form(page, act + "ae.supply/", {"piles": "\n".join(f"Supply pile {n}" for n in range(9))})
    post_form(page, act + "ae.mage/", {"player": "2", "kind": "equipment", "text": "Staff"})
    for name, kind, cost in [
        *((f"Gem {n}", "gem", 2 + n % 3) for n in range(4)),
        *((f"Relic {n}", "relic", 4) for n in range(3)),
        *((f"Spell {n}", "spell", 5) for n in range(5)),
    ]:
        post_form(page, act + "ae.card/", {"name": name, "kind": kind, "cost": str(cost)})
    post_form(page, act + "ae.roll/", {"gems": "3", "relics": "2", "spells": "4", "gem3": "on"})
    post_form(page, act + "ae.start/", {"nemesis": "Bladius", "nemesis_life": "70"})
    for _ in range(3):
        post_form(page, act + "ae.draw/", {})
        # A pair card asks which of the two takes the turn (a nemesis card asks nothing).
        for name in ("Adelheim", "Cassandra"):
            post_form(page, act + "ae.choose/", {"name": name}, ok=(302, 422))

    for name, label in [
        ("Score chart", "chart-10"),
        ("Turn order", "turns-4p"),
        ("Stickers & seals", "legacy-opened"),
        ("Outside", "outside-rolled"),
        ("Table", "table-4p"),
    ]:
        tab(page, name)
        expect(page.get_by_role("link", name=name)).to_have_attribute("aria-current", "page")
        shot(page, label)
        no_sideways_scroll(page)
        assert small_tap_targets(page) == [], name
    tab(page, "Score chart")
    expect(page.locator("#score-charts")).to_contain_text("10 games: 7 won, 3 lost.")
    expect(page.locator("#score-charts circle")).to_have_count(10)
    shot_of(page, "#score-charts", "aeonsend-charts-close")
    tab(page, "Turn order")
    shot_of(page, "#deck", "aeonsend-deck-close")
    shot_of(page, "#life", "aeonsend-life-close")
