// Test doubles for the SDK's node tests: a clock the test advances by hand, and a WebSocket
// whose far end the test scripts as a relay. Only pure logic is tested with them; media and
// the real relay are covered by the browser test (Tests/Interop/browser_demo_test.py).

/** A clock whose time moves only when the test calls advance(). */
export class ManualClock {
  constructor() {
    this.time = 0;
    this.timers = new Map();
    this.nextId = 1;
  }

  setTimeout(fn, ms) {
    const id = this.nextId++;
    this.timers.set(id, {at: this.time + Math.max(0, ms), fn});
    return id;
  }

  clearTimeout(id) {
    this.timers.delete(id);
  }

  now() {
    return this.time;
  }

  /** Moves time forward by ms, running due timers in order and letting promises settle between them. */
  async advance(ms) {
    const end = this.time + ms;
    for (;;) {
      await settle();
      let next = null;
      for (const [id, t] of this.timers) if (t.at <= end && (!next || t.at < next[1].at)) next = [id, t];
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
    await settle();
  }
}

/** Lets every pending promise continuation run. */
export async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Makes a WebSocket class whose instances are answered by `relay(socket, request)`: a function
 * that returns `{result}` or `{error}` for a request (or undefined to leave it unanswered) and
 * may push events with socket.event(). `opens(url)` decides whether a connection succeeds.
 */
export function fakeWebSocket({relay, opens = () => true}) {
  const sockets = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.closed = false;
      sockets.push(this);
      setImmediate(() => {
        if (opens(url)) this.onopen && this.onopen();
        else this._close(1006);
      });
    }

    send(text) {
      if (this.closed) throw new Error('socket closed');
      const request = JSON.parse(text);
      this.sent.push(request);
      setImmediate(() => {
        if (this.closed) return;
        const answer = relay(this, request);
        if (answer) this.receive({id: request.id, ...answer});
        for (const e of this.queued || []) this.receive(e);
        this.queued = [];
      });
    }

    /** Queues an event to follow the answer being made (the relay sends events after the response). */
    event(name, data) {
      (this.queued ||= []).push({event: name, data});
    }

    receive(message) {
      if (!this.closed && this.onmessage) this.onmessage({data: JSON.stringify(message)});
    }

    close(code = 1000) {
      this._close(code);
    }

    /** The relay (or the network) drops the connection. */
    drop() {
      this._close(1006);
    }

    _close(code) {
      if (this.closed) return;
      this.closed = true;
      if (this.onclose) this.onclose({code, reason: ''});
    }

    methods() {
      return this.sent.map((r) => r.method);
    }
  }
  return {FakeSocket, sockets};
}
