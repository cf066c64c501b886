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


def site_templates() -> list[Path]:
    """Every template the site draws: templates/, and any app's own templates/ folder."""
    apps = [
        path
        for folder in ("accounts", "campaigns", "companion")
        for path in (ROOT / folder).rglob("templates/**/*.html")
    ]
    return sorted([*templates(), *apps])


def long_lines(paths: list[Path], root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}:{number} ({len(line)} characters)"
        for path in paths
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if len(line) > 200
    ]


def test_no_template_line_is_over_200_characters():
    """Rule: a template line is at most 200 characters. Break it where nothing drawn changes:
    between a tag's attributes, at a space the text already has, inside a
    {% blocktranslate trimmed %} (its msgid stays the same), between block elements; or pass a
    command's initial values as one mapping (`{% command_form … initial=… %}`)."""
    assert long_lines(site_templates()) == []


def test_the_rule_names_a_long_line_by_file_and_number(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>short</p>\n<p>" + "x" * 200 + "</p>\n")
    assert long_lines([page], root=tmp_path) == ["page.html:2 (207 characters)"]
