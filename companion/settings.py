"""Settings for Companion: one file, read from the environment.

The defaults serve a group on one laptop (SQLite next to the code, no set-up). A hosted site
sets DATABASE_URL (PostgreSQL), DJANGO_SECRET_KEY, ALLOWED_HOSTS and COMPANION_HTTPS=1.
"""

import hashlib
import os
import secrets
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from companion import postgres

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# SHA-256 of keys that were published (the first one was tracked in git): never used again.
PUBLISHED_KEYS = {"0bd99781ad7bbf22804ebd85ffe122d36a8fa5621201174bd60cbd515ff8bb0a"}


def secret_key() -> str:
    """The key from the environment, else one made on first run and kept beside the database,
    readable by its owner only. A key known to be public is replaced by a fresh one."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = Path(os.environ.get("COMPANION_DATA_DIR", BASE_DIR)) / ".secret_key"
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key and hashlib.sha256(key.encode()).hexdigest() not in PUBLISHED_KEYS:
        return key
    fresh = secrets.token_urlsafe(50)
    temporary = path.with_name(f".secret_key.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(fresh)
    try:
        # Two processes starting at once agree on whichever key was written first.
        if key:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)
    except FileExistsError:
        return path.read_text().strip()
    finally:
        temporary.unlink(missing_ok=True)
    return fresh


SECRET_KEY = secret_key()
DEBUG = env_bool("DJANGO_DEBUG")
# Phones on the table's network reach the laptop by whatever address it has: any host by default.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Not "django_htmx": its middleware and helpers work without it, and as an app it would
    # collect htmx itself (29 files, 2.3 MB) that no page loads since swap.js.
    "campaigns",
    "accounts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "companion.errors.DatabaseUnreachableMiddleware",
    "companion.static.StaticFilesMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "companion.phone_time.PhoneTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "companion.limits.RequestSizeMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "companion.urls"
# Django's, with plain <input> widgets written without a template (companion/widgets.py).
FORM_RENDERER = "companion.widgets.FormRenderer"
ASGI_APPLICATION = "companion.asgi.application"
WSGI_APPLICATION = "companion.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
            # `|isolate` for every text the group typed (campaigns/bidi.py).
            "builtins": ["campaigns.templatetags.bidi"],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# Writers queue up instead of failing: IMMEDIATE takes the write lock at BEGIN, WAL lets readers
# (every phone's page and stream) go on meanwhile.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
# How long a request waits for PostgreSQL before the page says "try again" (seconds).
DATABASE_WAIT = float(os.environ.get("COMPANION_DB_WAIT", "4"))
# PostgreSQL connections per server process, at most (streams opening take half of them at most:
# companion/asgi.py).
DATABASE_POOL = int(os.environ.get("COMPANION_DB_POOL", "16"))
if DATABASE_URL:
    # No persistent connections under ASGI (Django's documentation): psycopg's pool per process,
    # so many phones share a few connections. A database that is down or stuck answers within
    # seconds (the site then says "try again"), never a hang.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        pool={
            "min_size": 1,
            "max_size": DATABASE_POOL,
            "timeout": DATABASE_WAIT,
            # A health check that never waits on a stopped server (companion/postgres.py).
            "check": postgres.check,
        },
        connect_timeout=max(1, round(DATABASE_WAIT) - 1),
        options="-c statement_timeout=5000",
    )
else:
    DATABASES = {
        "default": {
            # Django's SQLite, its connections pooled and its writers queued in the process
            # (companion/sqlite/base.py).
            "ENGINE": "companion.sqlite",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": SQLITE_OPTIONS,
        }
    }
if "sqlite" in DATABASES["default"]["ENGINE"]:
    # In memory unless SQLITE_TEST_PATH names a file (said outright: pytest-django knows only
    # Django's own SQLite engine name for that default).
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("SQLITE_TEST_PATH") or ":memory:"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "campaigns:home"
LOGOUT_REDIRECT_URL = "accounts:login"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
# English short dates without the month-or-day question (companion/formats/en).
FORMAT_MODULE_PATH = ["companion.formats"]

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "companion.assets.Storage"},
}
WHITENOISE_USE_FINDERS = DEBUG

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # a guest's phone stays in the campaign for a year
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Behind HTTPS (a hosted site): secure cookies, HSTS, and trust the proxy's scheme header.
COMPANION_HTTPS = env_bool("COMPANION_HTTPS")
if COMPANION_HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# The address phones on the table's network reach this machine by (`make run` sets it): an
# invitation made while the owner browses at 127.0.0.1 or localhost names it instead.
COMPANION_LAN_ADDRESS = os.environ.get("COMPANION_LAN_ADDRESS", "")
# How long one stream stays open before the phone reconnects (seconds).
COMPANION_STREAM_LIFETIME = float(os.environ.get("COMPANION_STREAM_LIFETIME", "300"))
# A tap on a button with a random outcome this soon after the same phone's previous one is that
# tap again (a double tap, campaigns.changes.same_tap), in milliseconds.
COMPANION_SAME_TAP_MS = int(os.environ.get("COMPANION_SAME_TAP_MS", "500"))
# Login, sign-up, join and password attempts allowed per address per minute (counted in the
# database, so across every server process).
COMPANION_RATE_LIMIT = int(os.environ.get("COMPANION_RATE_LIMIT", "20"))
# Changes one member may send to one campaign per second, with bursts of twice that: faster is
# a script, answered "too many taps" before any work (companion/taps.py). 0 turns it off.
COMPANION_TAPS_PER_SECOND = float(os.environ.get("COMPANION_TAPS_PER_SECOND", "8"))
# Changes all the members of one campaign together may send per second, with bursts of twice
# that (four guests from one invitation are four members): four members' pace unless set. 0
# turns it off.
COMPANION_CAMPAIGN_TAPS_PER_SECOND = float(
    os.environ.get("COMPANION_CAMPAIGN_TAPS_PER_SECOND", str(4 * COMPANION_TAPS_PER_SECOND))
)
# A proxy in front of the site appends the client's address to X-Forwarded-For: trust its last
# entry for the limits. Off, the header is ignored (anyone can write it).
COMPANION_TRUST_PROXY = env_bool("COMPANION_TRUST_PROXY")
# The largest campaign file an import accepts (bytes).
COMPANION_IMPORT_MAX_BYTES = 5 * 1024 * 1024
# The largest request body read at all (bytes): anything larger is answered 413 before it is
# read (companion/limits.py). Room for an import at its limit, and form fields around it.
COMPANION_MAX_REQUEST_BYTES = int(os.environ.get("COMPANION_MAX_REQUEST_BYTES", 6 * 1024 * 1024))
# A body within that limit stays in memory: no upload is written to disk.
FILE_UPLOAD_MAX_MEMORY_SIZE = COMPANION_MAX_REQUEST_BYTES
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
