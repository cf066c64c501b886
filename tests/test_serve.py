"""`make run`'s server starts and stops quietly, phones connected or not."""

import re
import signal
import subprocess
import sys
import threading

import httpx
import pytest

from tests.journeys import ROOT, Database, Phone, free_port, wait_until

pytestmark = pytest.mark.server


def answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=1)
    except httpx.HTTPError:
        return False
    return True


def test_starting_and_stopping_with_a_phone_connected_prints_no_warning():
    database = Database()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.serve"],
        cwd=ROOT,
        env={**database.env, "PORT": str(port), "HOST": "127.0.0.1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        assert wait_until(lambda: answers(url + "/login/")), "the server did not start"
        phone = Phone(url)
        # A static file (read in a thread, not on the event loop: no warning).
        login = httpx.get(url + "/login/").text
        sheet = re.search(r'href="(/static/[^"]+\.css)"', login)
        assert sheet is not None, login
        assert httpx.get(url + sheet.group(1)).status_code == 200
        phone.signup("quiet-stop")
        campaign = phone.create_campaign("Quiet", counters="Doom 0 12")
        heard: list[str] = []

        def listen() -> None:
            with phone.http.stream("GET", f"/c/{campaign}/stream/?v=0", timeout=30) as stream:
                for line in stream.iter_lines():
                    heard.append(line)

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        assert wait_until(lambda: heard), "the stream did not open"
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=20)[0].decode()
        listener.join(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
        database.close()
    assert "open:" in output  # the address for the phones
    for alarming in ("ERROR", "Traceback", "Warning", "Cancel", "must consume"):
        assert alarming not in output, output
    # The phone's stream was told to come back later, not cut off.
    assert "event: end" in heard
