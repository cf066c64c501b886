"""What a phone downloads the first time it opens each campaign page, with nothing cached: the
page and everything it asks for at once (styles, scripts, icons, the manifest), in the bytes the
server sends (the page gzipped by GZipMiddleware, each static file as WhiteNoise's .gz), and how
many requests that is. Every game, every page, and the table display; issue 8's budget was 22 KB,
24 KB since the offline layer (tests/first_load.py).
A page's and the manifest's bytes move by up to 100 between runs: Django's GZipMiddleware adds
random bytes to each response against BREACH.

Run by hand: `.venv/bin/python tests/bench/bench_first_load.py`. Prints figures; asserts nothing.
It uses a throwaway SQLite database; tests/test_first_load.py holds every page to the budget.
"""

from pathlib import Path

import throwaway

throwaway.site(static=True)

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

from tests import factories  # noqa: E402
from tests.first_load import BUDGET, BUDGET_LABEL, measure, pages  # noqa: E402


def sent(url: str) -> int:
    """The bytes the server sends for a static file or the manifest, gzipped."""
    if url.startswith(settings.STATIC_URL):  # "/static/": Django adds the script prefix
        path = Path(settings.STATIC_ROOT) / url.removeprefix(settings.STATIC_URL)
        packed = path.with_name(path.name + ".gz")  # WhiteNoise serves this one to gzip clients
        return len(packed.read_bytes()) if packed.exists() else len(path.read_bytes())
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return len(body)


owner = factories.user("bench-owner")
client = Client()
client.force_login(owner)
rows = pages(owner)

columns = ("html", "css", "js", "icons", "other", "total", "requests")
print("First load, nothing cached: gzip bytes as sent (other = the web app manifest)")
print(f"{'page':22}" + "".join(f"{c:>9}" for c in columns) + f"{BUDGET_LABEL:>8}")
worst = 0
for name, url in rows:
    sizes = measure(client, url, sent)
    worst = max(worst, sizes["total"])
    verdict = "ok" if sizes["total"] <= BUDGET else f"+{sizes['total'] - BUDGET}"
    print(f"{name:22}" + "".join(f"{sizes[c]:>9}" for c in columns) + f"{verdict:>8}")
print(f"largest first load {worst} bytes; budget {BUDGET} ({BUDGET_LABEL})")
