"""Real server processes for the tests that need one: live streams, concurrency, browsers.

Each site gets its own database (a SQLite file, or a fresh PostgreSQL database when the suite
runs with DATABASE_URL) and runs uvicorn in a subprocess, as `make run` does (with the site's
settings but for a fast password hasher: tests/site_settings.py).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def server_pid_of(port: int, client_port: int) -> int | None:
    """The process holding the server's end of the connection from `client_port` to `port` on
    this machine (read from /proc: which worker of several answers a phone)."""
    wanted = f"{port:04X}", f"{client_port:04X}"
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = fields[1].rsplit(":", 1)[1], fields[2].rsplit(":", 1)[1]
            if (local, remote) == wanted:
                inode = fields[9]
    if inode is None:
        return None
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            for fd in fd_dir.iterdir():
                if os.readlink(fd) == f"socket:[{inode}]":
                    return int(fd_dir.parent.name)
        except OSError:
            continue
    return None


# What every test site of this process shares, made once: the collected static files (the same
# for every site, only read) and, on SQLite, a migrated database that each site's copies. Each
# `manage.py` run starts Django in a new process: collectstatic took 1.5 s of CPU and migrate
# 0.9 s, for each of the suite's two dozen sites.
_SHARED: tempfile.TemporaryDirectory | None = None


def _manage(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args, "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def shared_files(env: dict[str, str]) -> Path:
    """The folder of what this process's sites share, made on first use with the settings in
    `env`: `static/` (collected) and `migrated.sqlite3` (an empty site, migrated)."""
    global _SHARED
    if _SHARED is None:
        folder = tempfile.TemporaryDirectory(prefix="companion-shared-")
        root = Path(folder.name)
        base = {k: v for k, v in env.items() if k != "DATABASE_URL"}
        _manage({**base, "STATIC_ROOT": str(root / "static")}, "collectstatic")
        _manage({**base, "SQLITE_PATH": str(root / "migrated.sqlite3")}, "migrate")
        _SHARED = folder
    return Path(_SHARED.name)


class Database:
    """A database of its own for one test site, created and migrated, dropped at the end."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="companion-site-")
        base = os.environ.get("DATABASE_URL", "")
        self.pg_name = None
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env.update(
            DJANGO_SETTINGS_MODULE="tests.site_settings",  # the site's, with a fast hasher
            DJANGO_SECRET_KEY=secrets.token_urlsafe(40),
            COMPANION_RATE_LIMIT="10000",
            # Journeys draw again as soon as a draw shows, faster than a person: no double-tap
            # window, but where a test opens a site with one (tests/test_browser_same_tap.py).
            COMPANION_SAME_TAP_MS="0",
            # Journeys and load tests send changes as fast as the server answers: no limit on a
            # member's pace, but where a test opens a site with one (tests/test_fair_share.py).
            COMPANION_TAPS_PER_SECOND="0",
            PYTHONUNBUFFERED="1",
        )
        env["STATIC_ROOT"] = str(shared_files(env) / "static")
        if base.startswith("postgres"):
            import psycopg

            self.pg_name = f"companion_site_{secrets.token_hex(4)}"
            self.admin_url = base
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.pg_name}"')
            parts = urlparse(base)
            env["DATABASE_URL"] = urlunparse(parts._replace(path="/" + self.pg_name))
            _manage(env, "migrate")
        else:
            env.pop("DATABASE_URL", None)
            env["SQLITE_PATH"] = str(Path(self.tmp.name) / "db.sqlite3")
            shutil.copyfile(shared_files(env) / "migrated.sqlite3", env["SQLITE_PATH"])
        self.env = env

    def shell(self, code: str) -> str:
        """Run Python in the site's Django (`manage.py shell -c`), for what no page can do (a
        session that expires now, say); what it prints."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def close(self) -> None:
        if self.pg_name:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
        self.tmp.cleanup()


class Site:
    """One uvicorn process serving Companion on a free port."""

    def __init__(
        self,
        database: Database,
        app: str = "companion.asgi:application",
        port: int | None = None,
        workers: int = 1,
        **env: str,
    ) -> None:
        """`env` adds settings for this process only (say, a short stream lifetime); `port`, a
        port of a site stopped before: the same site coming back after a restart; `workers`,
        server processes sharing the port, as the README's hosting section runs them."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the server runs)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
                "--timeout-graceful-shutdown",
                "1",
                "--no-proxy-headers",  # as `make run` and the README serve it
                *(["--workers", str(workers)] if workers > 1 else []),
            ],
            cwd=ROOT,
            env={**database.env, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.output()}")
            try:
                httpx.get(self.url + "/login/", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.output()}")

    def workers(self) -> list[int]:
        """The process ids of the server processes under uvicorn's supervisor (`workers` > 1)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        pids = [int(pid) for pid in children.read_text().split()]
        # (multiprocessing's resource tracker, if any, serves no requests)
        return [pid for pid in pids if "spawn_main" in process_command(pid)]

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Phone:
    """One person's browser session against a site, speaking plain HTTP (forms and cookies)."""

    def __init__(self, site_url: str) -> None:
        # Idle connections expire before uvicorn's keep-alive (5 s) closes them under a request
        # (a phone that waited while 63 others joined got "connection reset" on its first tap).
        limits = httpx.Limits(keepalive_expiry=2)
        self.http = httpx.Client(
            base_url=site_url, follow_redirects=False, timeout=30, limits=limits
        )

    def csrf(self) -> str:
        token = self.http.cookies.get("csrftoken")
        if not token:
            self.http.get("/login/")
            token = self.http.cookies.get("csrftoken")
        return token

    def get(self, path: str, **kwargs) -> httpx.Response:
        return self.http.get(path, **kwargs)

    def post(self, path: str, data: dict | None = None, **kwargs) -> httpx.Response:
        headers = {"X-CSRFToken": self.csrf(), **kwargs.pop("headers", {})}
        return self.http.post(path, data=data or {}, headers=headers, **kwargs)

    def signup(self, username: str) -> None:
        password = "table-" + secrets.token_hex(8)
        response = self.post(
            "/signup/",
            {"username": username, "password1": password, "password2": password},
        )
        assert response.status_code == 302, response.text
        self.username, self.password = username, password

    def login(self, username: str, password: str) -> None:
        response = self.post("/login/", {"username": username, "password": password})
        assert response.status_code == 302, response.text

    def create_campaign(self, name: str, **setup) -> int:
        response = self.post("/new/any/", {"name": name, **setup})
        assert response.status_code == 302, response.text
        return int(re.search(r"/c/(\d+)/", response.headers["location"]).group(1))

    def invite_path(self, campaign: int) -> str:
        page = self.get(f"/c/{campaign}/members/").text
        return urlparse(re.search(r'class="url">([^<]+)<', page).group(1)).path

    def join(self, invite_path: str, name: str) -> None:
        response = self.post(invite_path, {"display_name": name})
        assert response.status_code == 302, response.text

    def close(self) -> None:
        self.http.close()
