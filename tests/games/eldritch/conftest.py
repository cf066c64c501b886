import pytest

from tests.journeys import PHONE


@pytest.fixture
def phones_en_ja(browser, site):
    """Two phones at the table, 390×844: the first in English, the second in Japanese."""
    contexts = [
        browser.new_context(base_url=site.url, locale=locale, **PHONE)
        for locale in ("en-GB", "ja-JP")
    ]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(10_000)
    yield pages
    for context in contexts:
        context.close()
