"""What an attacker tries: a public secret key, undoing what one may not do, a stolen session,
a bag too big to work out, huge or odd requests, and limits dodged through another process."""

import re
import subprocess
from pathlib import Path

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client, RequestFactory, override_settings
from django.utils.safestring import mark_safe

from companion.settings import secret_key

ROOT = Path(__file__).resolve().parent.parent

# The key that was tracked in git from the first commit: public, so it must sign nothing now.
PUBLISHED_KEY = "Mt2PKF3qRpZ5uTprk3fs1FLo-4pEgk9BQIJV0GuV4es-YiQEobQRfpq5WJxkR7p2Vso"

# Secret key


def test_no_tracked_file_is_a_secret():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    secrets = [
        name
        for name in tracked
        if re.search(r"(^|/)\.?(secret|.*\.key$|.*\.pem$|\.env$|id_rsa)", name)
    ]
    assert secrets == []
    assert PUBLISHED_KEY not in "".join(
        (ROOT / name).read_text(errors="replace") for name in tracked if name.endswith(".py")
    )


def forged_messages_cookie(key: str) -> str:
    """A messages cookie holding raw HTML marked safe, signed with `key`."""
    with override_settings(SECRET_KEY=key):
        storage = CookieStorage(RequestFactory().get("/"))
        message = Message(constants.INFO, mark_safe('<img src=x id="forged">'))
        return storage._encode([message])


def test_a_messages_cookie_forged_with_the_published_key_is_not_rendered(owner):
    client = Client()
    client.force_login(owner)
    client.cookies["messages"] = forged_messages_cookie(PUBLISHED_KEY)
    page = client.get("/").content.decode()
    assert 'id="forged"' not in page
    assert "&lt;img" not in page  # not shown escaped either: the cookie is simply not trusted


def test_the_site_makes_its_own_key_readable_by_its_owner_only(tmp_path, monkeypatch):
    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    key = secret_key()
    path = tmp_path / ".secret_key"
    assert len(key) >= 50 and path.read_text() == key
    assert path.stat().st_mode & 0o777 == 0o600
    assert secret_key() == key  # made once, then kept
    # A key from an older clone (the published one) is replaced by a fresh one.
    path.write_text(PUBLISHED_KEY + "\n")
    fresh = secret_key()
    assert fresh not in (PUBLISHED_KEY, key)
    assert path.read_text() == fresh and path.stat().st_mode & 0o777 == 0o600
