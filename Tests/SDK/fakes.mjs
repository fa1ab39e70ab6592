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

/**
 * Stand-ins for the browser's WebRTC objects, recording what the SDK asks of them. They check
 * the SDK's bookkeeping (which transport, which SDP goes where, in which order), not WebRTC,
 * which the browser test exercises for real.
 */
export function fakeWebRTC() {
  const peerConnections = [];
  let streams = 0;

  /** Event listeners as the browser keeps them, countable so that a test sees them pile up. */
  class FakeTarget {
    constructor() {
      this.listeners = new Map();
    }

    addEventListener(type, fn) {
      if (!this.listeners.has(type)) this.listeners.set(type, new Set());
      this.listeners.get(type).add(fn);
    }

    removeEventListener(type, fn) {
      const set = this.listeners.get(type);
      if (set) set.delete(fn);
    }

    listenerCount(type) {
      return this.listeners.has(type) ? this.listeners.get(type).size : 0;
    }
  }

  class FakeTrack extends FakeTarget {
    constructor(kind) {
      super();
      this.kind = kind;
      this.readyState = 'live';
    }
  }

  class FakeMediaStream extends FakeTarget {
    constructor(tracks = [], id = undefined) {
      super();
      this.id = id || `stream-${++streams}`;
      this.tracks = [...tracks];
    }

    getTracks() {
      return [...this.tracks];
    }

    addTrack(track) {
      this.tracks.push(track);
    }

    removeTrack(track) {
      this.tracks = this.tracks.filter((t) => t !== track);
    }

  }

  class FakePeerConnection {
    constructor(config) {
      this.config = config;
      this.transceivers = [];
      this.connectionState = 'new';
      this.calls = [];
      this.closed = false;
      peerConnections.push(this);
    }

    addTransceiver(track, init) {
      const parameters = {encodings: (init.sendEncodings || [{}]).map((e) => ({active: true, ...e}))};
      const sender = {
        track,
        getParameters: () => structuredClone(parameters),
        setParameters: async (changed) => {
          this.calls.push(['setParameters', changed.encodings.map((e) => `${e.rid}:${e.active ? 'on' : 'off'}`).join(' ')]);
          parameters.encodings = changed.encodings;
        },
      };
      this.transceivers.push({track, init, sender});
    }

    getSenders() {
      return this.transceivers.map((t) => t.sender);
    }

    async createOffer(options) {
      if (options) this.calls.push(['createOffer', options]);
      return {type: 'offer', sdp: `offer with ${this.transceivers.length} sections`};
    }

    async createAnswer() {
      return {type: 'answer', sdp: `answer to ${this.remoteDescription.sdp}`};
    }

    async setLocalDescription(description) {
      this.calls.push(['local', description.type, description.sdp]);
      this.localDescription = description;
    }

    async setRemoteDescription(description) {
      this.calls.push(['remote', description.type, description.sdp]);
      this.remoteDescription = description;
    }

    /** A sender's encodings as a browser reports them, each at its maximum, on an open uplink. */
    async getStats() {
      const stats = new Map([['pair', {type: 'candidate-pair', nominated: true, availableOutgoingBitrate: 10_000_000}]]);
      for (const t of this.transceivers) {
        for (const e of t.sender ? t.sender.getParameters().encodings : []) {
          if (!e.rid || e.active === false) continue;
          stats.set(`out-${e.rid}`, {
            type: 'outbound-rtp', kind: t.track.kind, rid: e.rid, framesPerSecond: 30, qualityLimitationReason: 'none', targetBitrate: e.maxBitrate,
          });
        }
      }
      return stats;
    }

    close() {
      this.closed = true;
      this.connectionState = 'closed';
    }

    /**
     * The browser delivers a remote track (ontrack) on the transceiver of section `mid`, in a
     * stream with the offer's msid stream id. A section reused for a later track keeps its
     * transceiver and receiver, and (as in browsers) its track object.
     */
    deliver(kind, streamId, mid) {
      this.receiving ||= new Map();
      let transceiver = this.receiving.get(mid);
      if (!transceiver) {
        const track = new FakeTrack(kind);
        const receiver = {track, getStats: async () => new Map([['in', {type: 'inbound-rtp', kind, framesDecoded: 1, ssrc: 1}]])};
        transceiver = {mid, receiver, currentDirection: 'recvonly', stopped: false};
        this.receiving.set(mid, transceiver);
      }
      const stream = new FakeMediaStream([transceiver.receiver.track], streamId);
      this.ontrack({track: transceiver.receiver.track, streams: [stream], receiver: transceiver.receiver, transceiver});
      return transceiver.receiver.track;
    }

    /** The browser's ICE/DTLS state changes. */
    become(state) {
      this.connectionState = state;
      if (this.onconnectionstatechange) this.onconnectionstatechange();
    }
  }

  return {FakePeerConnection, FakeMediaStream, FakeTrack, peerConnections};
}
