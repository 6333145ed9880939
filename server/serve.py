"""Serving the app with waitress, and stopping it cleanly.

waitress holds one worker thread per open live stream; a stop first ends the streams (the hub
closes), lets the workers finish, then closes every connection and the listener from inside
waitress's own loop, so nothing races its poll on a closed socket.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import waitress  # type: ignore[import-untyped]
from flask import Flask

log = logging.getLogger(__name__)


class Served:
    def __init__(self, app: Flask, host: str, port: int, threads: int) -> None:
        self.app = app
        self.server: Any = waitress.create_server(app, host=host, port=port, threads=threads,
                                                  channel_timeout=120)
        self.thread = threading.Thread(target=self.server.run, name="waitress", daemon=True)

    @property
    def address(self) -> str:
        return f"http://{self.server.effective_host}:{self.server.effective_port}"

    def start(self) -> Served:
        self.thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop serving and the app's workers; whether waitress's loop ended in time."""
        services = self.app.extensions["bidbox"]
        services.hub.close()  # ends the open event streams, freeing their threads
        server = self.server
        server.task_dispatcher.shutdown(timeout=timeout)

        def close_everything() -> None:
            for dispatcher in list(server._map.values()):
                if dispatcher is not server and dispatcher is not server.trigger:
                    dispatcher.handle_close()
            server.close()

        try:
            server.trigger.pull_trigger(close_everything)
        except OSError as error:
            # waitress's wake-up pipe is gone, so its loop cannot be asked: close from here
            # (seen once in CI under a load average of 270; not reproduced since).
            log.warning("waitress: its trigger failed (%s); closing from outside", error)
            close_everything()
        self.thread.join(timeout)
        services.close()
        return not self.thread.is_alive()


def serve(app: Flask, *, host: str = "127.0.0.1", port: int = 8000,
          threads: int = 32) -> Served:
    return Served(app, host, port, threads).start()
