"""A database that is stopped or stuck: the phone gets a clear "try again" within seconds, not a
hang, and the site recovers by itself when the database is back."""

import contextlib
import os
import re
import secrets
import socket
import tempfile
import threading
from urllib.parse import urlparse, urlunparse

import pytest

from tests.journeys import Database, Phone, Site, shared_files

pytestmark = pytest.mark.server

POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


class Gate:
    """A TCP proxy in front of PostgreSQL that can play a stopped database: it drops every open
    connection, then accepts new ones and never answers (the worst case: a hang, not a refusal)."""

    def __init__(self, upstream: tuple[str, int] | None) -> None:
        self.upstream = upstream
        self.open = upstream is not None
        # Frozen: every connection stays open and nothing goes through either way, as when the
        # database server is stopped (SIGSTOP) with the site's pool connections established.
        self.thawed = threading.Event()
        self.thawed.set()
        self.sockets: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            if self.open:
                server = socket.create_connection(self.upstream)
                self.sockets.append(server)
                for a, b in ((client, server), (server, client)):
                    threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.thawed.wait()
                target.sendall(data)
        except OSError:
            pass
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        self.open = False
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self.sockets.clear()

    def start(self) -> None:
        self.stop()
        self.open = True

    def freeze(self) -> None:
        self.thawed.clear()

    def thaw(self) -> None:
        self.thawed.set()

    def close(self) -> None:
        self.stop()
        self.listener.close()


class Unreachable:
    """What a site needs of a Database, for a PostgreSQL that never answers."""

    def __init__(self, port: int) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="companion-down-")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        self.env.update(
            DJANGO_SETTINGS_MODULE="companion.settings",
            DJANGO_SECRET_KEY=secrets.token_urlsafe(40),
            DATABASE_URL=f"postgres://nobody@127.0.0.1:{port}/companion",
            PYTHONUNBUFFERED="1",
            # A second's wait, not the four a hosted site gives: the answer is the same.
            COMPANION_DB_WAIT="1",
        )
        self.env["STATIC_ROOT"] = str(shared_files(self.env) / "static")


def test_a_database_that_never_answers_gets_a_try_again_not_a_hang():
    gate = Gate(None)
    database = Unreachable(gate.port)
    site = Site(database)
    phone = Phone(site.url)
    try:
        # The client would give up after 30 s; the site answers well before.
        response = phone.post("/login/", {"username": "someone", "password": "a-password-1"})
        assert response.status_code == 503
        assert "Try again in a few seconds" in response.text
        assert phone.get("/join/some-invite/").status_code == 503
    finally:
        phone.close()
        site.close()
        gate.close()
        database.tmp.cleanup()


@pytest.mark.skipif(not POSTGRES, reason="stopping the database is a PostgreSQL matter")
def test_the_site_recovers_by_itself_when_postgresql_is_back():
    database = Database()
    url = urlparse(database.env["DATABASE_URL"])
    gate = Gate((url.hostname, url.port or 5432))
    through_gate = urlunparse(url._replace(netloc=f"{url.username}@127.0.0.1:{gate.port}"))
    site = Site(database, DATABASE_URL=through_gate)
    owner = Phone(site.url)
    try:
        owner.signup(f"gate{secrets.token_hex(3)}")
        campaign = owner.create_campaign("Through the gate", counters="Doom")
        assert owner.get(f"/c/{campaign}/").status_code == 200
        gate.stop()
        stopped = owner.get(f"/c/{campaign}/")
        assert stopped.status_code == 503
        assert "Try again" in stopped.text
        assert owner.get(f"/c/{campaign}/stream/").status_code == 503
        gate.start()
        answers = [owner.get(f"/c/{campaign}/").status_code for _ in range(3)]
        assert answers == [200, 200, 200]
    finally:
        owner.close()
        site.close()
        gate.close()
        database.close()
    assert "Traceback" not in site.output()


@pytest.mark.skipif(not POSTGRES, reason="a frozen database server is a PostgreSQL matter")
def test_a_frozen_postgresql_gets_a_try_again_within_the_wait_and_the_site_recovers():
    """The database server stopped (SIGSTOP) with the pool's connections established: a query
    sent on one of them is never answered, and no timeout of PostgreSQL's own runs. Every page,
    change and stream is answered "try again" (503), and the site is itself again when the
    server goes on."""
    database = Database()
    url = urlparse(database.env["DATABASE_URL"])
    gate = Gate((url.hostname, url.port or 5432))
    through_gate = urlunparse(url._replace(netloc=f"{url.username}@127.0.0.1:{gate.port}"))
    site = Site(database, DATABASE_URL=through_gate, COMPANION_DB_WAIT="1")
    owner = Phone(site.url)
    try:
        owner.signup(f"frozen{secrets.token_hex(3)}")
        campaign = owner.create_campaign("Frozen", counters="Doom")
        doom = int(
            re.search(r'id="tracker-(\d+)-name">Doom<', owner.get(f"/c/{campaign}/").text)[1]
        )
        owner.csrf()
        # The pool's connections are open and idle when the server stops.
        assert [owner.get(f"/c/{campaign}/").status_code for _ in range(4)] == [200] * 4
        gate.freeze()
        answers = {
            "page": owner.get(f"/c/{campaign}/"),
            "live refresh": owner.get(
                f"/c/{campaign}/", headers={"HX-Request": "true", "X-Live-Refresh": "true"}
            ),
            "change": owner.post(
                f"/c/{campaign}/do/counter.adjust/", {"tracker": doom, "delta": 1}
            ),
            "stream": owner.get(f"/c/{campaign}/stream/"),
            "history": owner.get(f"/c/{campaign}/history/"),
        }
        said = {name: answer.status_code for name, answer in answers.items()}
        assert said == dict.fromkeys(answers, 503)
        assert all("Try again" in answer.text for answer in answers.values())
        gate.thaw()
        assert [owner.get(f"/c/{campaign}/").status_code for _ in range(3)] == [200] * 3
        done = owner.post(f"/c/{campaign}/do/counter.adjust/", {"tracker": doom, "delta": 1})
        assert done.status_code == 302
    finally:
        gate.thaw()
        owner.close()
        site.close()
        gate.close()
        database.close()
    assert "Traceback" not in site.output()
