"""Many paho clients on one network thread: paho's external-loop API over epoll.

A table daemon on a Pi has one MQTT client, run by paho's own thread (``loop_start``). A process
that holds many tables (the load test's shards) would hold as many network threads, each waking
every second, each socket watched with ``select()``, which cannot watch a descriptor above 1023.
``NetworkLoop`` runs all of them on one thread:

- paho says, through its ``on_socket_*`` callbacks, which sockets to watch for reading and which
  also for writing; the loop waits on them with ``selectors`` (epoll on Linux: no 1023 limit)
  and calls ``loop_read``/``loop_write`` when a socket is ready;
- ``loop_misc`` once a second for every client: the keepalive pings and their timeout;
- a lost connection is made again with ``reconnect()``, after 1 s and then twice as long each
  failure up to 16 s, as ``reconnect_delay_set(1, 16)`` makes paho's own loop do.

Only this thread touches the selector: a callback that comes on another thread (a table thread
publishes, and paho asks for the socket to be watched for writing) is queued and the loop woken
through a socket pair. ``reconnect()`` connects with a blocking ``connect()``: on loopback or a
club's LAN that is immediate, and a refused connection fails at once.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from .client import close_sockets

log = logging.getLogger("bidbox.netloop")

MISC_INTERVAL = 1.0  # seconds between loop_misc calls (paho's own loop does the same)


@dataclass
class _Entry:
    client: mqtt.Client
    retry_at: float  # when to (re)connect: meaningful while the entry is waiting
    delay: float     # the wait after the next loss
    leaving: threading.Event | None = None  # remove() was asked: no reconnect; set when gone
    lost: bool = False  # it has had a connection and lost it: the next one is a reconnect


class NetworkLoop:
    """One thread running the network side of many paho clients."""

    def __init__(self, *, name: str = "mqtt-network", min_delay: float = 1.0,
                 max_delay: float = 16.0, clock: Callable[[], float] = time.monotonic,
                 turn: Callable[[], float | None] | None = None) -> None:
        self.name = name
        # Called on this thread after each turn of the loop (its socket events served): work
        # of the clients' owner done between reads, without a thread of its own. It returns
        # how long the next wait may last at most (None: no limit).
        self.turn = turn
        self.min_delay = min_delay
        self.max_delay = max_delay
        self.clock = clock
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._pending: deque[Callable[[], None]] = deque()
        self._entries: dict[int, _Entry] = {}  # by id(client)
        # The clients without a socket, waiting for their retry_at: a loss comes through
        # on_socket_close, so the loop never has to look over every client for one.
        self._waiting: dict[int, _Entry] = {}
        self._thread: threading.Thread | None = None
        self._closed = False
        self.reconnects = 0  # connections made again after a loss (the tests read it)

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> NetworkLoop:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and close every client's socket that is still open."""
        self._call(self._shut)
        if self._thread is not None:
            self._thread.join(timeout)
        self._wake_r.close()
        self._wake_w.close()
        self._selector.close()

    def __enter__(self) -> NetworkLoop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- clients -------------------------------------------------------------------------------

    def add(self, client: mqtt.Client) -> None:
        """Run ``client`` here. It must have been given its broker with ``connect_async``;
        the loop connects it at once and again whenever the connection is lost."""
        client.on_socket_open = self._on_open
        client.on_socket_close = self._on_close
        client.on_socket_register_write = self._on_want_write
        client.on_socket_unregister_write = self._on_done_writing
        entry = _Entry(client, retry_at=self.clock(), delay=self.min_delay)

        def enter() -> None:
            self._entries[id(client)] = self._waiting[id(client)] = entry
        self._call(enter)

    def remove(self, client: mqtt.Client, timeout: float = 3.0) -> bool:
        """No more reconnects for ``client``; wait until its socket is closed (after the
        ``disconnect()`` the caller made is written), closing it here after ``timeout``.
        True if it closed by itself."""
        gone = threading.Event()

        def leave() -> None:
            entry = self._entries.get(id(client))
            if entry is None:
                gone.set()
                return
            entry.leaving = gone
            if client.socket() is None:
                self._drop(entry)
        self._call(leave)
        closed = gone.wait(timeout)
        if not closed:
            self._call(lambda: self._force_out(client))
            gone.wait(timeout)
        return closed

    # -- paho's callbacks: on this thread, except a publish's want-write ----------------------

    def _on_open(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._call(lambda: self._watch(client, sock))

    def _on_close(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        # paho closes the socket as soon as this returns: unregister now if we are the loop,
        # else the kernel drops it from epoll and the queued call forgets it.
        def closed() -> None:
            self._forget(sock)
            entry = self._entries.get(id(client))
            if entry is not None:
                self._lost(entry)
        self._call(closed)

    def _on_want_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self._call(lambda: self._modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE))

    def _on_done_writing(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        def done() -> None:
            # A publish on another thread between paho's want_write() check and this call
            # found the flag still set and asked nothing: keep watching for writing then.
            wanted = client.want_write() and client.socket() is sock
            self._modify(sock, selectors.EVENT_READ | (selectors.EVENT_WRITE if wanted else 0))
        self._call(done)

    # -- the thread ----------------------------------------------------------------------------

    def call(self, action: Callable[[], None]) -> None:
        """Run ``action`` on the loop's thread: now if this is it, else queued and woken."""
        self._call(action)

    def _call(self, action: Callable[[], None]) -> None:
        """Run ``action`` on the loop's thread: now if this is it, else queued and woken."""
        if threading.current_thread() is self._thread:
            action()
            return
        with self._lock:
            self._pending.append(action)
        try:
            self._wake_w.send(b"\0")
        except (BlockingIOError, OSError):
            pass  # the pair is full (it will wake anyway) or closed (the loop is gone)

    def _run_pending(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    return
                action = self._pending.popleft()
            action()

    def _run(self) -> None:
        next_misc = self.clock() + MISC_INTERVAL
        while not self._closed:
            self._run_pending()
            if self._closed:
                break
            wait = None
            if self.turn is not None:
                try:
                    wait = self.turn()
                except Exception:  # the owner's work must not end every client's network
                    log.exception("%s: the turn's work failed", self.name)
            if self._closed:
                break
            now = self.clock()
            due = min([next_misc, *(e.retry_at for e in self._waiting.values())])
            timeout = max(0.0, due - now)
            if wait is not None:
                timeout = min(timeout, max(0.0, wait))
            for key, mask in self._selector.select(timeout):
                if key.data is None:
                    self._drain_wake()
                    continue
                self._serve(key.data, key.fileobj, mask)
            self._run_pending()
            now = self.clock()
            if now >= next_misc:
                next_misc = now + MISC_INTERVAL
                for entry in list(self._entries.values()):
                    if entry.client.socket() is not None:
                        entry.client.loop_misc()
                        if entry.client.is_connected():
                            entry.delay = self.min_delay
            self._reconnect_due(now)

    def _serve(self, client: mqtt.Client, sock: Any, mask: int) -> None:
        if mask & selectors.EVENT_READ:
            client.loop_read()
            # Bytes already taken off the socket wake no selector: what a TLS socket has
            # decrypted (``pending``) and what a ReadAheadClient (mqttlink.client) read
            # ahead (``buffered``). Read them now.
            held: list[Callable[[], int]] = [
                f for f in (getattr(sock, "pending", None), getattr(client, "buffered", None))
                if f is not None]
            while held and any(f() for f in held) and client.socket() is sock:
                client.loop_read()
        if mask & selectors.EVENT_WRITE and client.socket() is sock:
            client.loop_write()

    def _reconnect_due(self, now: float) -> None:
        for entry in [e for e in self._waiting.values() if e.retry_at <= now]:
            del self._waiting[id(entry.client)]
            try:
                entry.client.reconnect()
            except OSError as error:  # refused, unreachable: try again later
                log.debug("%s: reconnect failed: %s", self.name, error)
                self._lost(entry)
                continue
            self.reconnects += entry.lost

    def _lost(self, entry: _Entry) -> None:
        """The client has no socket now: gone if it was leaving, else a retry after its
        delay, twice as long the next time."""
        if entry.leaving is not None:
            self._drop(entry)
            return
        entry.lost = True
        entry.retry_at = self.clock() + entry.delay
        entry.delay = min(entry.delay * 2, self.max_delay)
        self._waiting[id(entry.client)] = entry

    def _drop(self, entry: _Entry) -> None:
        self._entries.pop(id(entry.client), None)
        self._waiting.pop(id(entry.client), None)
        if entry.leaving is not None:
            entry.leaving.set()

    def _force_out(self, client: mqtt.Client) -> None:
        close_sockets(client)  # its on_socket_close drops a leaving entry
        entry = self._entries.get(id(client))
        if entry is not None and entry.leaving is not None:
            self._drop(entry)  # it had no socket to close

    def _shut(self) -> None:
        self._closed = True
        for entry in list(self._entries.values()):
            entry.leaving = entry.leaving or threading.Event()
            self._force_out(entry.client)
        self._entries.clear()
        self._waiting.clear()

    # -- the selector (this thread only) -------------------------------------------------------

    def _watch(self, client: mqtt.Client, sock: Any) -> None:
        stale = self._selector.get_map().get(sock.fileno())
        if stale is not None:  # a closed socket's number, given again: forget the old one
            self._selector.unregister(stale.fileobj)
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if client.want_write() else 0)
        self._selector.register(sock, events, client)

    def _forget(self, sock: Any) -> None:
        try:
            self._selector.unregister(sock)
        except (KeyError, ValueError):
            pass  # never watched, or already forgotten

    def _modify(self, sock: Any, events: int) -> None:
        try:
            key = self._selector.get_key(sock)
        except (KeyError, ValueError):
            return  # closed meanwhile
        if key.events != events:
            self._selector.modify(sock, events, key.data)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except BlockingIOError:
            pass
