"""Issue 8: the first load of every campaign page, nothing cached, is within its budget (22 KB
gzip, 26 KB since the offline layer and issue 35: tests/first_load.py), counted
as a phone receives it: the page gzipped, and each style sheet, script and sprite as collectstatic
makes it (minified, then Zopfli's gzip; companion/assets.py). tests/bench/bench_first_load.py
prints the same figures page by page."""

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files import File
from django.test import Client

from companion.assets import Storage, ZopfliCompressor
from tests import factories
from tests.journeys import BUDGET, measure, pages


@pytest.mark.sweep
def test_every_campaign_pages_first_load_is_within_the_budget(db, tmp_path):
    owner = factories.user("first-load")
    client = Client()
    client.force_login(owner)
    storage, compressor, known = Storage(location=tmp_path), ZopfliCompressor(quiet=True), {}

    def sent(url: str) -> int:
        if not url.startswith(settings.STATIC_URL):  # the manifest
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            assert response.status_code == 200, url
            return len(response.content)
        name = url.removeprefix(settings.STATIC_URL)
        if name not in known:
            assert "htmx" not in name, f"a page loads {name}"
            with open(finders.find(name), "rb") as source:
                storage._save(name, File(source))
            data = (tmp_path / name).read_bytes()
            packed = compressor.compress_gzip(data) if compressor.should_compress(name) else data
            known[name] = min(len(data), len(packed))  # WhiteNoise keeps a .gz that is smaller
        return known[name]

    over = {}
    for name, url in pages(owner):
        sizes = measure(client, url, sent)
        assert sizes["js"] > 0  # the count does see the scripts
        if sizes["total"] > BUDGET:
            over[name] = sizes
    assert over == {}
