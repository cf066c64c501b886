"""`make run`'s server starts and stops quietly, phones connected or not."""

import re
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.server import ROOT, Database, Phone, free_port

pytestmark = pytest.mark.server


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
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/login/", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
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
        while not heard:
            time.sleep(0.05)
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
