"""The README's hosting section, run: several server processes on one database (PostgreSQL in
CI's second pass), uvicorn's `--workers` sharing one port as the README starts them.

A change made through one process reaches phones streaming from the other, and when a process
is killed its phones reconnect to the other with nothing lost: a tap whose answer was lost is
sent again with its change id (as live.js does) and applied once.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import threading

import pytest

from tests.journeys import Phone, Site, server_pid_of, wait_until

pytestmark = pytest.mark.server


class Listener:
    """A phone's stream, reconnecting as live.js does (from the last version it saw) when its
    server process goes away."""

    def __init__(self, site: Site, cookies, campaign: int) -> None:
        self.site = site
        self.phone = Phone(site.url)
        self.phone.http.cookies.update(cookies)
        self.campaign = campaign
        self.seen = 0
        self.servers: list[int | None] = []  # the process behind each connection, in order
        self.opened = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.listen, daemon=True)
        self.thread.start()

    def listen(self) -> None:
        while not self.stop.is_set():
            path = f"/c/{self.campaign}/stream/?v={self.seen}"
            try:
                with self.phone.http.stream("GET", path, timeout=30) as response:
                    stream = response.extensions["network_stream"]
                    client_port = stream.get_extra_info("client_addr")[1]
                    self.servers.append(server_pid_of(self.site.port, client_port))
                    self.opened.set()
                    for line in response.iter_lines():
                        if line.startswith("data:") and '"version"' in line:
                            self.seen = max(self.seen, int(re.search(r"\d+", line).group()))
                        if self.stop.is_set():
                            return
            except Exception:  # (the process was killed under it: reconnect, as live.js does,
                self.stop.wait(0.2)  # a moment later, unless the test is over)

    def wait_for(self, version: int, timeout: float = 30) -> bool:
        return wait_until(lambda: self.seen >= version, timeout)

    def close(self) -> None:
        self.stop.set()
        self.phone.close()


def test_two_processes_share_the_table_and_a_killed_one_loses_nothing(site_database):
    site = Site(site_database, workers=2)
    listeners: list[Listener] = []
    try:
        assert wait_until(lambda: len(site.workers()) == 2), site.workers()
        owner, friend = Phone(site.url), Phone(site.url)
        owner.signup(f"host{secrets.token_hex(4)}")
        campaign = owner.create_campaign("Hosted table", counters="Taps")
        friend.join(owner.invite_path(campaign), "Friend")
        page = owner.get(f"/c/{campaign}/").text
        taps = int(re.search(r'id="tracker-(\d+)-name">Taps<', page)[1])

        # Phones streaming from both processes (the kernel hands connections to either).
        workers = set(site.workers())
        while len(listeners) < 16 and {each.servers[0] for each in listeners} != workers:
            listener = Listener(site, owner.http.cookies, campaign)
            assert listener.opened.wait(30)
            listeners.append(listener)
        assert {listener.servers[0] for listener in listeners} == workers

        def tap(change: str) -> int:
            data = {"tracker": taps, "delta": 1, "change": change}
            return friend.post(f"/c/{campaign}/do/counter.adjust/", data).status_code

        # A change made through either process reaches the phones on both.
        assert tap(f"{'a' * 16}.first0000000") == 302
        assert all(listener.wait_for(1) for listener in listeners)

        # One process is killed: its phones reconnect to the other and hear what follows.
        killed = listeners[0].servers[0]
        os.kill(killed, signal.SIGKILL)
        assert wait_until(lambda: len(listeners[0].servers) > 1)
        assert listeners[0].servers[-1] != killed
        assert tap(f"{'a' * 16}.second000000") == 302
        # Its answer lost on the way, the phone sends the same tap again: applied once.
        assert tap(f"{'a' * 16}.second000000") == 302
        assert all(listener.wait_for(2) for listener in listeners)
        assert owner.get(f"/c/{campaign}/version/").json()["version"] == 2
        table = owner.get(f"/c/{campaign}/").text
        assert '<output class="value" aria-live="polite">2</output>' in table
        for phone in (owner, friend):
            phone.close()
    finally:
        for listener in listeners:
            listener.close()
        site.close()
    assert "Traceback" not in site.output(), site.output()[-3000:]
