"""Many phones writing to one campaign at once, against a real server: what the load test and the
benchmark (tests/bench/bench_live.py) share.

Every writer is a guest who joined through the invitation (no password to hash). Each taps a
counter and adds a note in turn, and every fifth tap is an undo. Afterwards the campaign is
exported and imported again: the import replays every event through the game's checks and
refuses a file whose state differs from the replay.
"""

from __future__ import annotations

import json
import re
import statistics
import threading
import time
from dataclasses import dataclass, field

import httpx

from tests.server import Phone


@dataclass
class Load:
    writers: int
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the notes whose adding was acknowledged
    refusals: list[str] = field(default_factory=list)  # the first few, for the report
    seconds: float = 0.0

    @property
    def acknowledged(self) -> int:
        return self.statuses.get(302, 0)

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500)

    @property
    def per_second(self) -> float:
        return self.acknowledged / self.seconds if self.seconds else 0.0

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else 0.0


def refusal_text(html: str) -> str:
    found = re.search(r'role="alert"[^>]*>\s*([^<]+)', html)
    return found.group(1).strip() if found else html[:200]


def tracker_ids(phone: Phone, campaign: int) -> tuple[int, int]:
    page = phone.get(f"/c/{campaign}/").text
    taps = int(re.search(r'id="tracker-(\d+)-name">Taps<', page).group(1))
    notes = int(re.search(r'id="tracker-(\d+)-name">Notes<', page).group(1))
    return taps, notes


def busy_table(site_url: str, writers: int, name: str) -> tuple[Phone, list[Phone], int]:
    owner = Phone(site_url)
    owner.signup(f"host{time.monotonic_ns()}")
    campaign = owner.create_campaign(name, counters="Taps", notes="on")
    invite = owner.invite_path(campaign)
    phones = []
    for number in range(writers):
        phone = Phone(site_url)
        phone.join(invite, f"Writer {number}")
        phone.csrf()
        phones.append(phone)
    return owner, phones, campaign


def write_at_once(phones: list[Phone], campaign: int, taps_each: int) -> Load:
    """Every phone taps `taps_each` times, all starting together."""
    taps, notes = tracker_ids(phones[0], campaign)
    load = Load(writers=len(phones))
    lock = threading.Lock()
    barrier = threading.Barrier(len(phones) + 1)

    def play(number: int, phone: Phone) -> None:
        barrier.wait()
        for turn in range(taps_each):
            text = f"w{number} t{turn}"
            if turn % 5 == 4:
                path, data = f"/c/{campaign}/undo/", {}
            elif turn % 2:
                path, data = f"/c/{campaign}/do/notes.add/", {"tracker": notes, "text": text}
            else:
                path, data = f"/c/{campaign}/do/counter.adjust/", {"tracker": taps, "delta": 1}
            start = time.perf_counter()
            try:
                response = phone.post(path, data)
                status = response.status_code
            except httpx.HTTPError as error:
                with lock:
                    load.errors.append(repr(error))
                continue
            with lock:
                if status != 302 and len(load.refusals) < 5:
                    load.refusals.append(f"{status} {path}: {refusal_text(response.text)}")
                load.latencies.append(time.perf_counter() - start)
                load.statuses[status] = load.statuses.get(status, 0) + 1
                if status == 302 and "notes.add" in path:
                    load.notes.append(text)

    threads = [threading.Thread(target=play, args=pair) for pair in enumerate(phones)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join(timeout=600)
    load.seconds = time.perf_counter() - started
    return load


def problems_after(owner: Phone, campaign: int, load: Load) -> list[str]:
    """What is wrong with the campaign after the load: nothing, when all went well."""
    found = []
    exported = owner.get(f"/c/{campaign}/export.json")
    record = json.loads(exported.text)
    if len(record["events"]) != load.acknowledged:
        found.append(f"{len(record['events'])} events for {load.acknowledged} acknowledged")
    written = {entry["seq"] for entry in record["events"]}
    if written != set(range(1, load.acknowledged + 1)):
        found.append("the events' numbers have gaps")
    # Each acknowledged note is in the history as its own event (it may have been undone since).
    texts = [e["data"].get("text") for e in record["events"] if e["action"] == "notes.add"]
    missing = [text for text in load.notes if text not in texts]
    if missing:
        found.append(f"acknowledged notes missing: {missing[:5]}")
    reimport = owner.post(
        "/import/",
        files={"file": ("load.json", exported.content, "application/json")},
    )
    if reimport.status_code != 302:
        found.append(f"the export does not replay to its state: {reimport.status_code}")
    return found
