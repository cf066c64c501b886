"""What a phone downloads the first time it opens each campaign page: the page and everything it
asks for at once (styles, scripts, images, icons), gzipped as the server sends them, and how many
requests that is.

Run by hand: `.venv/bin/python tests/bench/bench_first_load.py`. Prints figures; asserts nothing.
It uses a throwaway SQLite database.
"""

import gzip
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
tmp = tempfile.mkdtemp(prefix="companion-bench-")
os.environ.pop("DATABASE_URL", None)
os.environ["SQLITE_PATH"] = f"{tmp}/bench.sqlite3"
os.environ["STATIC_ROOT"] = f"{tmp}/static"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from tests import factories  # noqa: E402

call_command("migrate", verbosity=0)
call_command("collectstatic", "--noinput", verbosity=0)

ASSET = re.compile(
    r'<(?:script[^>]*\ssrc|link[^>]*rel="(?:stylesheet|icon|manifest)"[^>]*\shref|img[^>]*\ssrc)="([^"]+)"'
)


def asset_bytes(url: str) -> int:
    if url.startswith("data:"):
        return 0
    if url.startswith(settings.STATIC_URL) or url.startswith("/" + settings.STATIC_URL):
        name = url.split("static/", 1)[1]
        path = Path(settings.STATIC_ROOT) / name
        return len(gzip.compress(path.read_bytes(), 9))
    return 0


def first_load(client: Client, url: str) -> tuple[int, int, int]:
    html = client.get(url).content
    assets = sorted(set(ASSET.findall(html.decode())))
    assets = [a for a in assets if not a.startswith("data:")]
    page = len(gzip.compress(html, 9))
    total = page + sum(asset_bytes(a) for a in assets)
    manifest = "/manifest.webmanifest"
    if manifest in assets:
        total += len(gzip.compress(client.get(manifest).content, 9))
    return page, total, 1 + len(assets)


owner = factories.user("bench-owner")
client = Client()
client.force_login(owner)
campaigns = {
    game: factories.campaign(game, owner=owner, name=f"Bench {game}")
    for game in ("any", "arkham", "aeonsend")
}
print(f"{'page':40} {'html gz':>8} {'first load gz':>14} {'requests':>9}")
for game, campaign in campaigns.items():
    pages = ["", *(f"p/{slug}/" for slug in campaign.game_module.pages), "history/", "members/"]
    pages.append("settings/")
    for page in pages:
        url = f"/c/{campaign.pk}/{page}"
        html, total, requests = first_load(client, url)
        print(f"{game + ' ' + (page or 'table'):40} {html:>8} {total:>14} {requests:>9}")
