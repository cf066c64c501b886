"""How the cost of a campaign page grows with its history, and what a phone downloads.

Run by hand: `.venv/bin/python tests/bench/bench_campaign.py`. Prints figures; asserts nothing.
It uses a throwaway SQLite database.
"""

import gzip
import statistics
import time
from pathlib import Path

import throwaway

throwaway.site(static=True)

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from campaigns.games import GAMES  # noqa: E402
from campaigns.models import Campaign, Membership  # noqa: E402
from tests.first_load import ASSET  # noqa: E402

user = get_user_model().objects.create_user("bench", password="x" * 12)


def campaign_with(events: int, notes_every: int = 0) -> Campaign:
    """A campaign with `events` changes: +1s on a counter, and a note every `notes_every`."""
    setup = {
        "trackers": [
            {"kind": "counter", "name": "Doom"},
            {"kind": "notes", "name": "Notes"},
            {"kind": "results", "name": "Results"},
        ]
    }
    state = GAMES["any"].initial_state(setup)
    state.update(name=f"{events} events", archived=False)
    campaign = Campaign.objects.create(
        game="any", name=state["name"], setup=setup, initial_state=state, state=state
    )
    Membership.objects.create(campaign=campaign, user=user, role="owner")
    doom = campaign.state["trackers"][0]["id"]
    notes = campaign.state["trackers"][1]["id"]
    with transaction.atomic():
        for n in range(events):
            if notes_every and n % notes_every == 0:
                campaign.apply("notes.add", {"tracker": notes, "text": f"note {n}"}, user)
            else:
                campaign.apply("counter.adjust", {"tracker": doom, "delta": 1}, user)
    return campaign


def timed(client: Client, url: str, runs: int = 30) -> tuple[float, int]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(samples) * 1000, len(queries)


client = Client()
client.force_login(user)
print("Opening a campaign page (median of 30, Django test client, SQLite):")
print(
    f"{'events':>8} {'notes':>6} {'table ms':>9} {'queries':>8} {'history ms':>11} {'queries':>8}"
    f" {'undo ms':>8}"
)
for size, notes_every in ((10, 0), (10_000, 0), (10, 1), (1_000, 10), (10_000, 100)):
    built = time.perf_counter()
    campaign = campaign_with(size, notes_every)
    note_count = len(campaign.state["trackers"][1]["entries"])
    built = time.perf_counter() - built
    table_ms, table_q = timed(client, f"/c/{campaign.pk}/")
    history_ms, history_q = timed(client, f"/c/{campaign.pk}/history/")
    start = time.perf_counter()
    campaign.undo(user)
    undo_ms = (time.perf_counter() - start) * 1000
    print(
        f"{size:>8} {note_count:>6} {table_ms:>9.2f} {table_q:>8} {history_ms:>11.2f}"
        f" {history_q:>8} {undo_ms:>8.1f}   (built in {built:.1f} s)"
    )
print("(The page's cost follows what it shows, the state, not the number of events.)")

print("\nFirst load of a campaign page, gzip bytes as sent: the page and every file it names")
campaign = campaign_with(10)
page = client.get(f"/c/{campaign.pk}/", HTTP_ACCEPT_ENCODING="gzip")
body = page.content
html = gzip.decompress(body).decode() if page.get("Content-Encoding") == "gzip" else body.decode()
total = len(body)
print(f"{'the page (HTML)':<40} {total:>7}")
for url in sorted({asset for asset in ASSET.findall(html) if not asset.startswith("data:")}):
    if url.startswith(settings.STATIC_URL):  # WhiteNoise sends the .gz to a gzip client
        path = Path(settings.STATIC_ROOT) / url.removeprefix(settings.STATIC_URL)
        packed = path.with_name(path.name + ".gz")
        size = len((packed if packed.exists() else path).read_bytes())
    else:  # the web app manifest
        size = len(client.get(url, HTTP_ACCEPT_ENCODING="gzip").content)
    total += size
    print(f"{url:<40} {size:>7}")
print(f"{'total':<40} {total:>7}   (every page and its budget: bench_first_load.py)")
