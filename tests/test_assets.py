"""What `collectstatic` makes of our own static files (companion/assets.py): the same page in
fewer bytes, readable by any browser."""

import gzip
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files import File

from companion.assets import Storage, ZopfliCompressor
from tests import factories
from tests.factories import client_for
from tests.journeys import text

STATIC = Path(settings.BASE_DIR) / "static"


def collected(tmp_path, name: str) -> str:
    storage = Storage(location=tmp_path)
    with (STATIC / name).open("rb") as source:
        storage._save(name, File(source))
    return (tmp_path / name).read_text()


def test_our_script_is_collected_without_its_comments(tmp_path):
    source = (STATIC / "js" / "live.js").read_text()
    script = collected(tmp_path, "js/live.js")
    assert "// Companion's live page" in source and "Companion's live page" not in script
    assert len(script) < 0.75 * len(source)
    # What the code says stays: names the server and the pages rely on.
    for word in ("data-live", "X-Campaign-Version", "companionSwap", "EventSource"):
        assert word in script
    # swap.js speaks htmx's attributes and headers, which the templates and django-htmx use.
    swap = collected(tmp_path, "js/swap.js")
    for word in ("hx-post", "HX-Request", "HX-Retarget", "hx-swap-oob", "htmx-request"):
        assert word in swap


def test_our_style_sheets_are_collected_without_comments_or_spaces(tmp_path):
    source = (STATIC / "css" / "site.css").read_text()
    sheet = collected(tmp_path, "css/site.css")
    assert "/*" in source and "/*" not in sheet
    assert "@media (prefers-color-scheme:dark)" in sheet
    assert len(sheet) < len(source)


def test_a_vendored_file_is_left_as_it_came(tmp_path):
    storage = Storage(location=tmp_path)
    text = b"/* kept */\nvar x = 1;\n"
    storage._save("vendor/other.js", File(io.BytesIO(text)))
    assert (tmp_path / "vendor" / "other.js").read_bytes() == text


def test_the_compressed_copy_is_gzip_and_smaller_than_gzip_alone():
    data = (STATIC / "js" / "live.js").read_bytes()
    packed = ZopfliCompressor.compress_gzip(data)
    assert gzip.decompress(packed) == data
    assert len(packed) < len(gzip.compress(data, 9))


@pytest.mark.sweep
def test_a_games_style_sheet_comes_with_its_own_pages_only(owner):
    """History, members and settings have none of a game's parts: a phone opening them first
    is not sent the game's style sheet."""
    for game in ("arkham", "aeonsend", "eldritch", "noir"):
        campaign = factories.campaign(game, owner=owner)
        client = client_for(owner)
        sheet = f'href="/static/css/{campaign.game_module.stylesheet.split("/")[-1]}"'
        for page in ("", *(f"p/{slug}/" for slug in campaign.game_module.pages)):
            assert sheet in text(client.get(f"/c/{campaign.pk}/{page}")), (game, page)
        for page in ("history/", "members/", "settings/"):
            assert sheet not in text(client.get(f"/c/{campaign.pk}/{page}")), (game, page)
            assert 'href="/static/css/site.css"' in text(client.get(f"/c/{campaign.pk}/{page}"))


def test_collectstatic_ships_only_the_sites_own_static_files():
    """Every file the finders hand collectstatic is one of static/'s: no app's (django-htmx's
    app would add htmx itself, 29 files and 2.3 MB that no page loads since swap.js)."""
    sources = {
        (Path(storage.location).resolve(), path)
        for finder in finders.get_finders()
        for path, storage in finder.list([])
    }
    assert sources and {folder for folder, _ in sources} == {STATIC.resolve()}
    ours = {path.relative_to(STATIC).as_posix() for path in STATIC.rglob("*") if path.is_file()}
    assert {path for _, path in sources} == ours
