"""The site's settings with bench_change.py's bare view added to the URLs."""

from companion.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bare_urls"
