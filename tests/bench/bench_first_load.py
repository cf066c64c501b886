"""What a phone downloads the first time it opens each campaign page, with nothing cached: the
page and everything it asks for at once (styles, scripts, icons, the manifest), in the bytes the
server sends (the page gzipped by GZipMiddleware, each static file as WhiteNoise's .gz), and how
many requests that is. Every game, every page, and the table display; issue 8's budget is 22 KB.
A page's and the manifest's bytes move by up to 100 between runs: Django's GZipMiddleware adds
random bytes to each response against BREACH.

Run by hand: `.venv/bin/python tests/bench/bench_first_load.py`. Prints figures; asserts nothing.
It uses a throwaway SQLite database.
"""

import gzip
import re
from pathlib import Path

import throwaway

throwaway.site(static=True)

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

from campaigns.games import GAMES  # noqa: E402
from campaigns.views.display import display_url  # noqa: E402
from tests import factories  # noqa: E402

BUDGET = 22 * 1024
# What the browser fetches as the page loads: scripts, style sheets, the icon and manifest links,
# images, and SVG sprites named by <use href> (one request per file, whatever the fragment).
ASSET = re.compile(
    r'<(?:script[^>]*\ssrc|link[^>]*rel="(?:stylesheet|icon|manifest)"[^>]*\shref|img[^>]*\ssrc'
    r'|use[^>]*\shref)="([^"#]+)[^"]*"'
)


def sent(url: str, client: Client) -> int:
    """The bytes the server sends for a static file or the manifest, gzipped."""
    if url.startswith("/" + settings.STATIC_URL):
        path = Path(settings.STATIC_ROOT) / url.split(settings.STATIC_URL, 1)[1]
        packed = path.with_name(path.name + ".gz")  # WhiteNoise serves this one to gzip clients
        return len(packed.read_bytes()) if packed.exists() else len(path.read_bytes())
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return len(body)


def kind(url: str) -> str:
    if url.endswith(".css"):
        return "css"
    if url.endswith(".js"):
        return "js"
    if url.endswith((".svg", ".png")):
        return "icons"
    return "other"


def first_load(client: Client, url: str) -> dict[str, int]:
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200, (url, response.status_code)
    body = response.content
    html = gzip.decompress(body).decode() if response.get("Content-Encoding") == "gzip" else body
    sizes = {"html": len(body), "css": 0, "js": 0, "icons": 0, "other": 0}
    assets = {a for a in ASSET.findall(str(html)) if not a.startswith("data:")}
    for asset in assets:
        sizes[kind(asset)] += sent(asset, client)
    sizes["total"] = sum(sizes.values())
    sizes["requests"] = 1 + len(assets)
    return sizes


def played(game: str, owner) -> factories.Campaign:
    """A campaign a group has played a little, so each page shows what it shows at the table."""
    steps: list[factories.Step] = []
    if game == "arkham":
        for name, player in (("Roland Banks", "Olive"), ("Agnes Baker", "Ben")):
            steps.append(
                ("investigator.add", {"name": name, "player": player, "health": 9, "sanity": 5})
            )
        steps += [("bag.draw", {}), ("bag.done", {}), ("bag.draw", {})]
    campaign = factories.campaign(game, owner=owner, name=f"Bench {game}")
    try:
        return factories.play(campaign, owner, steps)
    except Exception:  # the commands' data moved on: the page is measured as it starts
        return campaign


owner = factories.user("bench-owner")
client = Client()
client.force_login(owner)
rows = []
for game in GAMES:
    campaign = played(game, owner)
    pages = ["", *(f"p/{slug}/" for slug in campaign.game_module.pages)]
    pages += ["history/", "members/", "settings/"]
    for page in pages:
        rows.append(
            (f"{game} {page.removeprefix('p/').strip('/') or 'table'}", f"/c/{campaign.pk}/{page}")
        )
    rows.append((f"{game} display", display_url(campaign)))

columns = ("html", "css", "js", "icons", "other", "total", "requests")
print("First load, nothing cached: gzip bytes as sent (other = the web app manifest)")
print(f"{'page':22}" + "".join(f"{c:>9}" for c in columns) + f"{'22 KB':>8}")
worst = 0
for name, url in rows:
    sizes = first_load(client, url)
    worst = max(worst, sizes["total"])
    verdict = "ok" if sizes["total"] <= BUDGET else f"+{sizes['total'] - BUDGET}"
    print(f"{name:22}" + "".join(f"{sizes[c]:>9}" for c in columns) + f"{verdict:>8}")
print(f"largest first load {worst} bytes; budget {BUDGET} (22 KB)")
