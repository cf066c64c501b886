"""What a phone downloads the first time it opens a campaign page, with nothing cached (issue 8:
at most 22 KB gzip; 24 KB since the offline layer, issue 23; 26 KB since issue 35): the page and
everything it asks for at once (styles, scripts, icons, the manifest), in the bytes the server
sends. Shared by tests/bench/bench_first_load.py, which prints every page's figures from the
collected static files, and tests/test_first_load.py, which holds every page to the budget."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

from django.test import Client

from campaigns.games import GAMES
from campaigns.views.display import display_url
from tests import factories

# Issue 8 set 22 KB. Issue 23 (2026-12-03) added the phone's offline layer to every campaign page
# (static/js/offline.js, 3.2 KB gzip: installable, taps kept across reloads), and the scenario
# card and the group's names made the Arkham pages larger: the largest page (the chaos bag) came
# to 23.1 KB. Issue 35 (2026-12-08) made a waiting tap's every refusal said in the phone's
# language, the queue paced to the tap limit and the kept pages forgotten with their session
# (offline.js, and the words on every page's script tag): the chaos bag came to 24.7 KB; and
# every tap became a change of its own, queued behind the one on its way (live.js, offline.js):
# 25.2 KB. Once a phone has loaded a page, the service worker keeps these files.
BUDGET = 26 * 1024
BUDGET_LABEL = "26 KB"
# What the browser fetches as the page loads: scripts, style sheets, the icon and manifest links,
# images, and SVG sprites named by <use href> (one request per file, whatever the fragment).
ASSET = re.compile(
    r'<(?:script[^>]*\ssrc|link[^>]*rel="(?:stylesheet|icon|manifest)"[^>]*\shref|img[^>]*\ssrc'
    r'|use[^>]*\shref)="([^"#]+)[^"]*"'
)


def kind(url: str) -> str:
    if url.endswith(".css"):
        return "css"
    if url.endswith(".js"):
        return "js"
    if url.endswith((".svg", ".png")):
        return "icons"
    return "other"


def measure(client: Client, url: str, sent: Callable[[str], int]) -> dict[str, int]:
    """The page at `url` and the assets it names, each as `sent` counts its bytes."""
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200, (url, response.status_code)
    body = response.content
    html = gzip.decompress(body).decode() if response.get("Content-Encoding") == "gzip" else body
    sizes = {"html": len(body), "css": 0, "js": 0, "icons": 0, "other": 0}
    assets = {a for a in ASSET.findall(str(html)) if not a.startswith("data:")}
    for asset in assets:
        sizes[kind(asset)] += sent(asset)
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


def pages(owner) -> list[tuple[str, str]]:
    """Every campaign page of every game, and its table display: (name, address)."""
    rows = []
    for game in GAMES:
        campaign = played(game, owner)
        paths = ["", *(f"p/{slug}/" for slug in campaign.game_module.pages)]
        paths += ["history/", "members/", "settings/"]
        for path in paths:
            name = path.removeprefix("p/").strip("/") or "table"
            rows.append((f"{game} {name}", f"/c/{campaign.pk}/{path}"))
        rows.append((f"{game} display", display_url(campaign)))
    return rows
