/*
 * PKRelay browser demo: code shared by anchor.html and audience.html.
 *
 * The pages talk to one relay over its control WebSocket (JSON requests, responses and events;
 * docs/PROTOCOL.md) and move media over WebRTC transports. A relay WebRTC transport either
 * receives one publication (the browser offers, the relay answers) or delivers subscriptions
 * (the relay offers, the browser answers), so every page uses one RTCPeerConnection per
 * transport.
 *
 * The test driver (Tests/Interop/browser_demo_test.py) reads `window.pkDemo`; its fields are
 * described where it is created below.
 */
'use strict';

const PKRelayDemo = (() => {
  const query = new URLSearchParams(location.search);

  // The relay bundles everything on one port with RTCP multiplexed. For the publish side the
  // browser writes the offer, and max-bundle keeps it from gathering candidates per m-line.
  const PUBLISH_CONFIG = {bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require'};
  // For the receive side the relay writes the offers. When every track is gone (a PK ended) its
  // offer has only rejected m-lines and hence no BUNDLE group, which max-bundle would refuse.
  const RECEIVE_CONFIG = {bundlePolicy: 'balanced', rtcpMuxPolicy: 'require'};

  // A request the relay has not answered by then is reported as an error instead of leaving
  // the page waiting forever.
  const REQUEST_TIMEOUT_MS = 15000;

  /*
   * What the test driver and a curious developer can read from the console:
   *   state          the page's phase, a short string ('starting', 'joined', 'live', 'error', …)
   *   lastError      {method?, code, message} of the last failure, or null
   *   framesDecoded  async () => {publisherUserId: framesDecoded of its video, summed}
   *   frameSizes     async () => {publisherUserId: {width, height}}: frameWidth x frameHeight
   *                  of the video being decoded now (inbound-rtp statistics)
   *   tiles          () => userIds that have a tile on the page
   *   log            the last lines of the page's log
   *   peerConnections {receive, publish?}: the RTCPeerConnections, for getStats() and SDP
   *   request        (method, params) => Promise: a request on the page's control channel,
   *                  e.g. pkDemo.request('getStats', {}) to compare with the browser's figures
   * Pages add their own fields (anchor: pkState, peer, framesEncoded()).
   */
  const pkDemo = {
    state: 'starting',
    lastError: null,
    framesDecoded: async () => ({}),
    frameSizes: async () => ({}),
    tiles: () => [],
    log: [],
    peerConnections: {},
    request: async () => { throw new Error('not connected to the relay yet'); },
  };
  window.pkDemo = pkDemo;

  // ---------------------------------------------------------------------------------------
  // Page settings, log, status and errors

  /**
   * Room and user come from the query string. The relay serves the demo next to its control
   * channel, so by default the WebSocket is /rtc and the token endpoint /demo/token on the
   * page's own origin; `relay=` and `tokenBase=` override both for a page served elsewhere.
   */
  function settings() {
    const wsScheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return {
      room: query.get('room') || '',
      user: query.get('user') || '',
      relayUrl: query.get('relay') || `${wsScheme}//${location.host}/rtc`,
      tokenBase: query.get('tokenBase') || new URL('token', location.href).href,
    };
  }

  const MAX_LOG_LINES = 200;

  /** Appends a line to the on-page log and the console (the test driver collects the latter). */
  function log(text) {
    const line = `${new Date().toISOString().slice(11, 23)} ${text}`;
    console.log(`[pkdemo] ${line}`);
    pkDemo.log.push(line);
    if (pkDemo.log.length > MAX_LOG_LINES) pkDemo.log.shift();
    const box = document.getElementById('log');
    if (box) {
      box.textContent = pkDemo.log.join('\n');
      box.scrollTop = box.scrollHeight;
    }
  }

  function setState(state) {
    if (pkDemo.state !== state) log(`state: ${pkDemo.state} -> ${state}`);
    pkDemo.state = state;
    renderStatus();
  }

  // Pages register a function that adds their own facts (e.g. the PK state) to the status line.
  let statusExtras = () => '';

  function setStatusExtras(fn) {
    statusExtras = fn;
    renderStatus();
  }

  function renderStatus() {
    const line = document.getElementById('status');
    if (!line) return;
    const extra = statusExtras();
    line.textContent = `State: ${pkDemo.state}${extra ? ' · ' + extra : ''}`;
  }

  /**
   * Shows an error in the page and records it for the test driver. Relay errors keep their
   * numeric code (docs/PROTOCOL.md section 6) because that is what an app would branch on.
   */
  function showError(err, context) {
    // In a cluster, a join that reached the wrong node is redirected (4030): the page is opened
    // again against the node that serves the room, with the same settings.
    if (err && err.code === 4030 && err.data && err.data.controlURL) {
      const next = new URL(location.href);
      next.searchParams.set('relay', err.data.controlURL);
      log(`room lives on node ${err.data.nodeId}: opening the page against ${err.data.controlURL}`);
      location.assign(next.href);
      return;
    }
    // Relay errors carry the relay's code; browser exceptions (DOMException) are named instead,
    // their numeric legacy codes mean nothing here.
    const fromBrowser = typeof DOMException !== 'undefined' && err instanceof DOMException;
    const entry = {
      method: err.method || context || undefined,
      code: fromBrowser ? err.name : (err.code !== undefined ? err.code : 'error'),
      message: err.message || String(err),
    };
    pkDemo.lastError = entry;
    const where = entry.method ? `${entry.method}: ` : '';
    const text = `${where}error ${entry.code}: ${entry.message}`;
    log(`ERROR ${text}`);
    const box = document.getElementById('error');
    if (box) {
      box.textContent = text;
      box.hidden = false;
    }
  }

  function clearError() {
    const box = document.getElementById('error');
    if (box) box.hidden = true;
  }

  // ---------------------------------------------------------------------------------------
  // Tokens

  /**
   * Asks the relay for a development token. The endpoint exists only while the relay runs
   * with its public development key: a real app gets tokens from its own room server.
   */
  async function fetchToken(tokenBase, room, user) {
    const url = new URL(tokenBase, location.href);
    url.searchParams.set('room', room);
    url.searchParams.set('user', user);
    let response;
    try {
      response = await fetch(url.href, {cache: 'no-store'});
    } catch (e) {
      throw Object.assign(new Error(`cannot fetch a token from ${url.href}: ${e.message}`),
        {method: 'token', code: 'fetch'});
    }
    if (!response.ok) {
      const hint = response.status === 404
        ? ' (the relay serves development tokens only when it runs with its development key)' : '';
      throw Object.assign(new Error(`GET ${url.pathname} answered HTTP ${response.status}${hint}`),
        {method: 'token', code: response.status});
    }
    const body = await response.json();
    if (typeof body.token !== 'string') {
      throw Object.assign(new Error('the token endpoint answered without a token'),
        {method: 'token', code: 'format'});
    }
    return body.token;
  }

  // ---------------------------------------------------------------------------------------
  // Control channel

  /** Error answer of the relay: `{code, message}` plus the method it answered. */
  class RelayError extends Error {
    constructor(method, code, message, data) {
      super(message);
      this.method = method;
      this.code = code;
      // Details some codes carry: 4030 (the room lives on another cluster node) names the
      // node's controlURL.
      this.data = data;
    }
  }

  /**
   * One control WebSocket, which is one user for the relay. Requests are matched to responses
   * by id; events are handed to the handlers registered with on().
   */
  class RelayClient {
    constructor(url) {
      this.url = url;
      this.nextId = 1;
      this.pending = new Map();
      this.handlers = new Map();
      this.onclose = null;
      this.ws = null;
    }

    connect() {
      pkDemo.request = (method, params) => this.request(method, params || {});
      return new Promise((resolve, reject) => {
        const ws = new WebSocket(this.url);
        this.ws = ws;
        let opened = false;
        ws.onopen = () => {
          opened = true;
          log(`control channel open: ${this.url}`);
          resolve();
        };
        ws.onerror = () => {
          if (!opened) reject(new RelayError('connect', 'websocket', `cannot reach the relay at ${this.url}`));
        };
        ws.onclose = (e) => {
          const reason = `control channel closed (code ${e.code}${e.reason ? ', ' + e.reason : ''})`;
          for (const {reject: fail, timer, method} of this.pending.values()) {
            clearTimeout(timer);
            fail(new RelayError(method, 'closed', reason));
          }
          this.pending.clear();
          if (opened && this.onclose) this.onclose(reason);
        };
        ws.onmessage = (e) => this.receive(e.data);
      });
    }

    receive(text) {
      let message;
      try {
        message = JSON.parse(text);
      } catch (e) {
        log(`unreadable message from the relay: ${String(text).slice(0, 200)}`);
        return;
      }
      if (message.event) {
        this.dispatch(message.event, message.data || {});
        return;
      }
      const waiter = this.pending.get(message.id);
      if (!waiter) {
        log(`response to an unknown request id ${message.id}`);
        return;
      }
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.error) {
        waiter.reject(new RelayError(waiter.method, message.error.code, message.error.message, message.error.data));
      } else {
        waiter.resolve(message.result || {});
      }
    }

    dispatch(event, data) {
      const handlers = this.handlers.get(event);
      if (!PERIODIC_EVENTS.has(event)) log(`<- ${event} ${summarize(data)}`);
      if (!handlers) return;
      for (const handler of handlers) {
        try {
          handler(data);
        } catch (e) {
          showError(e, event);
        }
      }
    }

    on(event, handler) {
      if (!this.handlers.has(event)) this.handlers.set(event, []);
      this.handlers.get(event).push(handler);
    }

    request(method, params) {
      const id = this.nextId++;
      log(`-> ${method} ${summarize(params)}`);
      return new Promise((resolve, reject) => {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
          reject(new RelayError(method, 'closed', 'the control channel is not open'));
          return;
        }
        const timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RelayError(method, 'timeout', `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`));
        }, REQUEST_TIMEOUT_MS);
        this.pending.set(id, {resolve, reject, timer, method});
        this.ws.send(JSON.stringify({id, method, params}));
      });
    }
  }

  // Reports the relay sends every few seconds; logging them would bury everything else.
  const PERIODIC_EVENTS = new Set(['onNetworkQuality', 'onRemoteAudioPropertiesReport', 'onActiveSpeaker']);

  /** A one-line view of a request or event for the log; SDP and tokens are only counted. */
  function summarize(data) {
    return JSON.stringify(data, (key, value) => {
      if (key === 'sdp' && typeof value === 'string') return `<sdp ${value.length} chars>`;
      if (key === 'token' && typeof value === 'string') return `<token>`;
      return value;
    });
  }

  // ---------------------------------------------------------------------------------------
  // Receiving: one WebRTC transport the relay delivers every subscription on

  /**
   * The receive side of a page. The relay sends onTransportOffer whenever the tracks delivered
   * on the transport change; the page answers each offer, one at a time and in order, because
   * the relay never sends the next offer before the previous one is answered.
   *
   * Each m-line carries one track whose msid stream id is the publisher's userId, so ontrack's
   * stream tells which user a track belongs to. Removed tracks come back as inactive port-0
   * m-lines; the browser ends those tracks itself.
   */
  class ReceiveTransport {
    constructor(relay, onTrack) {
      this.relay = relay;
      this.onTrack = onTrack;
      this.id = null;
      this.pc = null;
      this.answering = Promise.resolve();
      this.receivers = [];          // {userId, kind, receiver, transceiver}, for per-publisher statistics
    }

    /** Creates the relay transport; its id is what joinRoom's roomConfig.subscribeTransportId needs. */
    async open() {
      const transport = await this.relay.request('createTransport', {kind: 'webrtc'});
      this.id = transport.transportId;
      this.pc = new RTCPeerConnection(RECEIVE_CONFIG);
      pkDemo.peerConnections.receive = this.pc;
      this.pc.ontrack = (e) => this.trackArrived(e);
      this.pc.onconnectionstatechange = () => log(`receive transport ${this.id}: ${this.pc.connectionState}`);
      // Registered before joining, so that an offer the join triggers is never missed.
      this.relay.on('onTransportOffer', (data) => {
        if (data.transportId !== this.id) return;
        this.answering = this.answering.then(() => this.answer(data));
      });
      return this.id;
    }

    async answer({revision, sdp}) {
      try {
        await this.pc.setRemoteDescription({type: 'offer', sdp});
        await this.pc.setLocalDescription(await this.pc.createAnswer());
        // The relay is ICE-lite: the browser's connectivity checks find it, so the answer needs
        // no candidates and is sent at once rather than after gathering.
        await this.relay.request('answerTransportOffer',
          {transportId: this.id, revision, sdp: this.pc.localDescription.sdp});
      } catch (e) {
        showError(e, 'answerTransportOffer');
      }
    }

    trackArrived(e) {
      const stream = e.streams[0];
      // Without a stream the m-line had no msid; keep the track visible under its mid.
      const userId = stream ? stream.id : `mid-${e.transceiver.mid}`;
      log(`track: ${e.track.kind} of ${userId} (mid ${e.transceiver.mid})`);
      this.receivers.push({userId, kind: e.track.kind, receiver: e.receiver, transceiver: e.transceiver});
      this.onTrack(userId, e.track, stream || new MediaStream([e.track]));
    }

    /** framesDecoded of every received video track, summed per publisher userId. */
    async framesDecoded() {
      const totals = {};
      for (const {userId, kind, receiver} of this.receivers) {
        if (kind !== 'video') continue;
        let report;
        try {
          report = await receiver.getStats();
        } catch (e) {
          continue;                 // a receiver of a removed m-line may have no statistics left
        }
        report.forEach((entry) => {
          if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
            totals[userId] = (totals[userId] || 0) + (entry.framesDecoded || 0);
          }
        });
      }
      return totals;
    }

    /**
     * The resolution each publisher's video is decoded at now. Only receivers of m-lines in use
     * count: a section the relay made inactive keeps the statistics of what it last decoded.
     * The size changes at the first keyframe of a new video layer (setRemoteVideoStreamType),
     * although the track, SSRC and m-line stay the same.
     */
    async frameSizes() {
      const sizes = {};
      for (const {userId, kind, receiver, transceiver} of this.receivers) {
        if (kind !== 'video' || receiver.track.readyState !== 'live') continue;
        if (transceiver && (transceiver.stopped || transceiver.currentDirection === 'inactive')) continue;
        let report;
        try {
          report = await receiver.getStats();
        } catch (e) {
          continue;
        }
        report.forEach((entry) => {
          if (entry.type === 'inbound-rtp' && entry.kind === 'video' && entry.frameWidth) {
            sizes[userId] = {width: entry.frameWidth, height: entry.frameHeight};
          }
        });
      }
      return sizes;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Video tiles, one per remote publisher

  /**
   * The grid of remote users. Tiles follow the room events (a publisher appears, unpublishes,
   * leaves); media follows ontrack. The two are kept apart because a republish is announced
   * as unpublish + publish while the relay keeps delivering on the same tracks, and a tile
   * created again must find its stream.
   */
  class TileGrid {
    /**
     * `decorate(userId, tile)`, if given, runs once for each new tile; a page adds its own
     * controls to `tile.element` there (the audience page: the video layer toggle).
     */
    constructor(container, emptyText, decorate) {
      this.container = container;
      this.emptyText = emptyText;
      this.decorate = decorate || null;
      this.tiles = new Map();       // userId -> {element, video, caption}
      this.streams = new Map();     // userId -> MediaStream from ontrack
      this.origins = new Map();     // userId -> room it is forwarded or linked from
      this.renderEmpty();
    }

    /** Records where a mirrored user comes from (onUserJoined.forwardedFrom). */
    setOrigin(userId, forwardedFrom) {
      if (forwardedFrom) this.origins.set(userId, forwardedFrom);
      else this.origins.delete(userId);
      const tile = this.tiles.get(userId);
      if (tile) tile.caption.textContent = this.label(userId);
    }

    label(userId) {
      const origin = this.origins.get(userId);
      return origin ? `${userId} (PK partner from room ${origin})` : userId;
    }

    show(userId) {
      let tile = this.tiles.get(userId);
      if (!tile) {
        const element = document.createElement('figure');
        element.className = 'tile';
        element.dataset.userId = userId;
        const video = document.createElement('video');
        video.autoplay = true;
        video.playsInline = true;
        // Browsers only autoplay muted media; a click on the tile turns the sound on.
        video.muted = true;
        video.title = 'Click to unmute';
        video.addEventListener('click', () => {
          video.muted = !video.muted;
          video.title = video.muted ? 'Click to unmute' : 'Click to mute';
        });
        const caption = document.createElement('figcaption');
        element.append(video, caption);
        tile = {element, video, caption};
        if (this.decorate) this.decorate(userId, tile);
        this.tiles.set(userId, tile);
        this.container.append(element);
        log(`tile added: ${userId}`);
      }
      tile.caption.textContent = this.label(userId);
      const stream = this.streams.get(userId);
      if (stream && tile.video.srcObject !== stream) tile.video.srcObject = stream;
      this.renderEmpty();
      return tile;
    }

    attach(userId, stream) {
      this.streams.set(userId, stream);
      const tile = this.show(userId);
      // A stream object that gained a track plays it only after being assigned again.
      tile.video.srcObject = null;
      tile.video.srcObject = stream;
    }

    remove(userId) {
      const tile = this.tiles.get(userId);
      if (!tile) return;
      tile.video.srcObject = null;
      tile.element.remove();
      this.tiles.delete(userId);
      log(`tile removed: ${userId}`);
      this.renderEmpty();
    }

    /** The user is gone from the room: forget its media too. */
    forget(userId) {
      this.remove(userId);
      this.streams.delete(userId);
      this.origins.delete(userId);
    }

    ids() {
      return [...this.tiles.keys()];
    }

    /** The tile of a user ({element, video, caption} and what `decorate` added), or undefined. */
    get(userId) {
      return this.tiles.get(userId);
    }

    renderEmpty() {
      let note = this.container.querySelector('.empty');
      if (this.tiles.size === 0) {
        if (!note) {
          note = document.createElement('p');
          note.className = 'empty';
          note.textContent = this.emptyText;
          this.container.append(note);
        }
      } else if (note) {
        note.remove();
      }
    }
  }

  /**
   * Keeps a tile grid in step with the room's events: a tile per user that publishes, removed
   * when its main stream ends or the user leaves.
   */
  function followRoom(relay, room, grid) {
    relay.on('onUserJoined', (d) => {
      if (d.roomId === room) grid.setOrigin(d.userId, d.forwardedFrom);
    });
    relay.on('onUserPublishStream', (d) => {
      if (d.roomId === room && d.streamIndex === 'main') grid.show(d.userId);
    });
    relay.on('onUserUnpublishStream', (d) => {
      if (d.roomId === room && d.streamIndex === 'main') grid.remove(d.userId);
    });
    relay.on('onUserLeave', (d) => {
      if (d.roomId === room) grid.forget(d.userId);
    });
  }

  /**
   * Shows the relay's view of a transport (onTransportStateChanged); a failure carries a code
   * (4016 DTLS, 4017 ICE) worth showing like any relay error.
   */
  function followTransportStates(relay, names) {
    relay.on('onTransportStateChanged', (d) => {
      const name = names[d.transportId] || `transport ${d.transportId}`;
      log(`relay says ${name} is ${d.state}`);
      // Either way the transport is gone for good: media on it stops until the page reloads.
      if (d.state === 'failed' || d.state === 'closed') {
        showError({method: name, code: d.errorCode !== undefined ? d.errorCode : d.state,
          message: d.reason || `transport ${d.state}`});
      }
    });
  }

  /** Shows that the relay took the user out of a room (kick, dismissal, token expiry, …). */
  function followExit(relay, room) {
    relay.on('onExitRoom', (d) => {
      if (d.roomId !== room) return;
      showError({method: 'onExitRoom', code: d.code, message: `${d.message} (reason ${d.reason})`});
      setState('left');
    });
  }

  /** Marks the page "disconnected" when the control channel closes. */
  function followClose(relay) {
    relay.onclose = (reason) => {
      showError({method: 'connection', code: 'closed', message: reason});
      setState('disconnected');
    };
  }

  /** Fills the identity line, or shows the room/user form when the query lacks them. */
  function requireIdentity(role) {
    const {room, user} = settings();
    const identity = document.getElementById('identity');
    if (room && user) {
      identity.textContent = `Room ${room} · ${role} ${user}`;
      document.title = `${user} in ${room} · PKRelay demo`;
      return true;
    }
    document.getElementById('pick').hidden = false;
    identity.textContent = 'Choose a room and a user id.';
    setState('waiting for room and user');
    return false;
  }

  return {
    PUBLISH_CONFIG,
    pkDemo,
    settings,
    log,
    setState,
    setStatusExtras,
    renderStatus,
    showError,
    clearError,
    fetchToken,
    RelayClient,
    RelayError,
    ReceiveTransport,
    TileGrid,
    followRoom,
    followTransportStates,
    followExit,
    followClose,
    requireIdentity,
  };
})();
