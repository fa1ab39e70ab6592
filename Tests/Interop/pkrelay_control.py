"""The PKRelay control channel: JSON requests, responses and events over one WebSocket.

See docs/PROTOCOL.md, section 1 ("Messages"). One ControlChannel is one user of the relay.
"""

import asyncio
import itertools
import json
import sys
import time

try:
    # websockets 13 and later
    from websockets.asyncio.client import connect as websocket_connect
except ImportError:  # older releases only have the legacy client, with the same call shape
    from websockets import connect as websocket_connect


class RelayError(Exception):
    """The relay answered a request with an error object, or the connection broke."""

    def __init__(self, method, code, message):
        super().__init__(f"{method}: {code} {message}")
        self.method = method
        self.code = code
        self.message = message

    def as_json(self):
        return {"method": self.method, "code": self.code, "message": self.message}


# Stand-in error code for failures that are not answers from the relay (the relay's own codes
# are all non-zero integers, so 0 cannot be confused with one of them).
TRANSPORT_ERROR_CODE = 0


class ControlChannel:
    def __init__(self, url, verbose=False, log_start=None):
        self.url = url
        self.verbose = verbose
        self.log_start = log_start if log_start is not None else time.monotonic()
        self.events = []  # every event received, in order: (name, data)
        self._socket = None
        self._reader = None
        self._ids = itertools.count(1)
        self._pending = {}  # request id -> (method, future)
        self._listeners = []
        self._closed = False

    @property
    def closed(self):
        return self._closed

    def log(self, text):
        if self.verbose:
            elapsed = time.monotonic() - self.log_start
            print(f"[{elapsed:8.3f}] {text}", file=sys.stderr, flush=True)

    async def connect(self, timeout=10):
        try:
            # The relay closes the connection above 1 MiB frames; accept as much from it.
            self._socket = await asyncio.wait_for(
                websocket_connect(self.url, max_size=1 << 20), timeout
            )
        except Exception as error:  # refused, timed out, bad handshake: all end the run alike
            raise RelayError("connect", TRANSPORT_ERROR_CODE, f"{self.url}: {error!r}")
        self.log(f"connected to {self.url}")
        self._reader = asyncio.ensure_future(self._read_loop())

    def add_listener(self, callback):
        """callback(name, data) runs for every event, in the reader task: it must not block."""
        self._listeners.append(callback)

    async def request(self, method, params, timeout=10):
        if self._closed:
            raise RelayError(method, TRANSPORT_ERROR_CODE, "control connection is closed")
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = (method, future)
        text = json.dumps({"id": request_id, "method": method, "params": params})
        self.log(f"-> {text}")
        try:
            await self._socket.send(text)
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise RelayError(method, TRANSPORT_ERROR_CODE, f"no answer within {timeout} s")
        except RelayError:
            raise
        except Exception as error:
            raise RelayError(method, TRANSPORT_ERROR_CODE, repr(error))
        finally:
            self._pending.pop(request_id, None)

    def find_event(self, name, predicate=lambda data: True):
        for event_name, data in self.events:
            if event_name == name and predicate(data):
                return data
        return None

    async def wait_event(self, name, predicate=lambda data: True, timeout=10):
        """The first event `name` whose data satisfies predicate, including earlier ones."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event_name, data in self.events[seen:]:
                if event_name == name and predicate(data):
                    return data
            seen = len(self.events)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._closed:
                return None
            await asyncio.sleep(min(0.05, remaining))

    async def close(self):
        self._closed = True
        if self._socket is not None:
            try:
                await asyncio.wait_for(self._socket.close(), 3)
            except Exception:
                pass
        if self._reader is not None:
            self._reader.cancel()

    async def _read_loop(self):
        try:
            async for text in self._socket:
                self._dispatch(text)
            reason = "the relay closed the control connection"
        except asyncio.CancelledError:
            raise
        except Exception as error:
            reason = f"control connection failed: {error!r}"
        if not self._closed:
            self.log(reason)
        self._closed = True
        for method, future in self._pending.values():
            if not future.done():
                future.set_exception(RelayError(method, TRANSPORT_ERROR_CODE, reason))

    def _dispatch(self, text):
        self.log(f"<- {text}")
        try:
            message = json.loads(text)
        except ValueError:
            self.log("ignoring a message that is not JSON")
            return
        if not isinstance(message, dict):
            return
        if "event" in message:
            name = message.get("event")
            data = message.get("data") or {}
            self.events.append((name, data))
            for callback in list(self._listeners):
                try:
                    callback(name, data)
                except Exception as error:  # one faulty handler must not stop the reader
                    self.log(f"event handler for {name} failed: {error!r}")
            return
        entry = self._pending.get(message.get("id"))
        if entry is None:
            return
        method, future = entry
        if future.done():
            return
        if "error" in message:
            error = message.get("error") or {}
            future.set_exception(
                RelayError(method, error.get("code"), error.get("message", ""))
            )
        else:
            future.set_result(message.get("result") or {})
