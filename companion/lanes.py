"""Kept threads shared fairly: campaigns take turns, and none holds more than its share.

A hosted site serves many tables from one process. The requests a table makes most (its
changes, its live refreshes, the pages its streams push) run on a few threads kept for them
(companion/asgi.py, campaigns/views/shared.py). Handed to a thread pool first come first served,
one busy campaign could queue hundreds of requests in front of another campaign's one tap: a
member looping draws made other tables' taps 25 times slower, and 40 streams asking for 40
different drawings of one campaign made another campaign's push wait close to a minute.

So work waits here, on the event loop (which costs no thread), in one lane per campaign:

- a lane runs at most `per_lane` pieces of work at once (a campaign's changes queue on its row
  anyway, so one thread is all they can use); the rest of the lane waits its turn;
- when a thread is free, the lane with the fewest pieces running gets it, and among those the
  next in turn, not the oldest piece of work: a campaign with one tap waiting goes before the
  second piece of a campaign with a hundred.

Everything runs on the event loop that calls `run` (uvicorn's one loop in a process); the
threads only run the work itself, through asgiref's public `sync_to_async` with our executor.

No wait here is without end: work that has not finished `wait` seconds after it was handed in
(still in its lane's queue, or on a thread held up by a database that does not answer) raises
`Busy` to its caller, which answers "try again"; work still queued then is never started, and a
thread still running it is counted busy until it returns. A lane is any hashable, None included.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async

# A piece of work waiting: what starts it on a thread, and whether its phone went away meanwhile.
Work = tuple[Callable[[], None], Callable[[], bool]]


class Busy(Exception):
    """The work did not finish within the lanes' wait: the caller answers "try again"."""


class Lanes:
    def __init__(self, threads: int, per_lane: int, name: str, wait: float) -> None:
        self.threads = threads
        self.per_lane = per_lane
        self.wait = wait
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reset()

    def reset(self) -> None:
        self.waiting: dict[Hashable, deque[Work]] = {}  # lanes with work waiting
        self.running: dict[Hashable, int] = {}
        self.last_turn: dict[Hashable, int] = {}  # when each lane last had a thread given
        self.turns = 0
        self.busy = 0

    async def run[T](self, lane: Hashable, function: Callable[..., T], *args: object) -> T:
        """`function(*args)` on one of the kept threads, when its lane's turn comes."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            # A new event loop (a test's, a restarted server's): what waited on the old one is
            # gone with it.
            self.loop = loop
            self.reset()
        done: asyncio.Future[T] = loop.create_future()

        def start() -> None:
            work = sync_to_async(function, thread_sensitive=False, executor=self.executor)
            task = asyncio.ensure_future(work(*args))
            task.add_done_callback(functools.partial(self.finished, lane, done))

        self.waiting.setdefault(lane, deque()).append((start, done.cancelled))
        self.next_turns()
        try:
            # (On timeout `done` is cancelled: still queued, it is dropped when its turn comes.)
            return await asyncio.wait_for(done, self.wait)
        except TimeoutError:
            raise Busy from None

    def ready(self) -> list[Hashable]:
        """The lanes with work waiting and room to run it."""
        return [lane for lane in self.waiting if self.running.get(lane, 0) < self.per_lane]

    def next_turn(self, ready: list[Hashable]) -> Hashable:
        """Of the `ready` lanes, the one that gets the next free thread: the one with the fewest
        pieces running, then the one that had a thread given the longest ago (a lane that never
        had one first)."""
        return min(
            ready, key=lambda lane: (self.running.get(lane, 0), self.last_turn.get(lane, -1))
        )

    def next_turns(self) -> None:
        """Give free threads to the lanes whose turn it is."""
        # (Which lanes are ready is asked apart from which goes first: a lane may be None, so
        # no lane's name can mean "none ready". A lane named None once held every lane up.)
        while self.busy < self.threads and (ready := self.ready()):
            lane = self.next_turn(ready)
            queue = self.waiting[lane]
            start, cancelled = queue.popleft()
            if not queue:
                del self.waiting[lane]
            if cancelled():  # the phone went away while it waited
                self.forget(lane)
                continue
            self.busy += 1
            self.running[lane] = self.running.get(lane, 0) + 1
            self.turns += 1
            self.last_turn[lane] = self.turns
            start()

    def forget(self, lane: Hashable) -> None:
        """A lane with nothing waiting or running keeps no turn (a campaign that comes back
        later comes back first)."""
        if lane not in self.waiting and lane not in self.running:
            self.last_turn.pop(lane, None)

    def finished[T](self, lane: Hashable, done: asyncio.Future[T], task: asyncio.Future[T]) -> None:
        self.busy -= 1
        self.running[lane] -= 1
        if not self.running[lane]:
            del self.running[lane]
            self.forget(lane)
        error = None if task.cancelled() else task.exception()  # (always read: no warning)
        if not done.done():
            if task.cancelled():
                done.cancel()
            elif error is not None:
                done.set_exception(error)
            else:
                done.set_result(task.result())
        self.next_turns()

    def waiting_in(self, lane: Hashable) -> int:
        return len(self.waiting.get(lane, ()))
