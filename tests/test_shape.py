"""The site's shape (issue 7), as rules a reader can grep: every error message is written by one
partial, no template line runs past 200 characters, no module past 500 lines."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
ERROR_PARTIAL = TEMPLATES / "campaigns" / "error.html"


def templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def test_the_templates_are_found():
    assert ERROR_PARTIAL in templates() and len(templates()) > 30


# An error paragraph, or a loop over a form's or a field's errors: both belong to the partial.
HAND_WRITTEN_ERROR = re.compile(r'class="error\b|\{%\s*for\s+\w+\s+in\s+[\w.]*errors\b')


def test_only_the_error_partial_writes_an_error_message():
    """Rule: a template shows errors with {% include "campaigns/error.html" %} (on=a field,
    of=a form, message=a text, or a region's refusal); it never writes the paragraph itself."""
    by_hand = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in templates()
        if path != ERROR_PARTIAL
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if HAND_WRITTEN_ERROR.search(line)
    ]
    assert by_hand == []


def test_the_rule_sees_a_hand_written_error():
    assert HAND_WRITTEN_ERROR.search("{% for message in form.kind.errors %}<p>{{ message }}</p>")
    assert HAND_WRITTEN_ERROR.search('<p class="error" role="alert">Nope</p>')
    assert not HAND_WRITTEN_ERROR.search("<details{% if form.errors %} open{% endif %}>")


def test_no_module_of_the_site_is_over_500_lines():
    too_long = {
        str(module.relative_to(ROOT)): lines
        for folder in ("accounts", "companion", "campaigns")
        for module in (ROOT / folder).rglob("*.py")
        if (lines := len(module.read_text().splitlines())) > 500
    }
    assert too_long == {}


def test_every_campaign_page_extends_the_one_page_skeleton():
    """Rule: the header, its tabs and the undo bar are written once, in campaign-page.html; a
    page template extends it and holds only its own regions."""
    skeleton = TEMPLATES / "campaign-page.html"
    pages = [
        path for path in templates() if '{% extends "campaign-page.html" %}' in path.read_text()
    ]
    assert len(pages) >= 17  # each game's pages, history, members, settings
    for path in templates():
        if path != skeleton:
            source = path.read_text()
            assert 'include "campaigns/header.html"' not in source, path
            assert 'include "campaigns/undo-bar.html"' not in source, path
    for path in pages:
        assert "partialdef content" not in path.read_text(), path


# Lines still over 200 characters, per template (issue 7 brings them to none): a ceiling that
# only goes down. Each is a run of tags and translations with no place left to break it where
# the break changes nothing (between attributes, inside a `trimmed` translation).
LONG_LINES_LEFT = {
    "base.html": 3,
    "display.html": 1,
    "games/aeonsend/chart.html": 1,
    "games/aeonsend/legacy.html": 3,
    "games/aeonsend/nemesis.html": 1,
    "games/aeonsend/outside.html": 9,
    "games/aeonsend/parts.html": 2,
    "games/aeonsend/turns.html": 11,
    "games/arkham/table.html": 8,
    "games/eldritch/investigator.html": 5,
    "games/eldritch/setup.html": 1,
    "games/eldritch/table.html": 10,
    "games/noir/table.html": 16,
}


def test_no_template_line_is_over_200_characters():
    """Rule: a template line is at most 200 characters; break it between a tag's attributes or
    inside a {% blocktranslate trimmed %}, or move a repeated set of attributes into a partial."""
    over = {}
    for path in templates():
        name = path.relative_to(TEMPLATES).as_posix()
        count = sum(len(line) > 200 for line in path.read_text().splitlines())
        if count > LONG_LINES_LEFT.get(name, 0):
            over[name] = count
    assert over == {}
