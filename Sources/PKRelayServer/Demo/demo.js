/*
 * PKRelay browser demo: the page chrome shared by anchor.html and audience.html (settings, log,
 * status, errors, video tiles, the development token). Everything that talks to the relay is
 * the web SDK (/sdk/pkrelay.js, docs/SDK.md); this file only shows what it reports.
 *
 * The test driver (Tests/Interop/browser_demo_test.py) reads `window.pkDemo`; its fields are
 * described in Tests/Interop/BROWSER.md.
 */
import {ErrorCode} from '../sdk/pkrelay.js';

const query = new URLSearchParams(location.search);

export const pkDemo = {
  state: 'starting',
  lastError: null,
  connection: 'disconnected',
  reconnects: [],
  log: [],
  client: null,
  tiles: () => [],
  firstFrames: () => ({}),
  // Anchor pages: when Accept was clicked, and the relay's onForwardStreamFirstKeyframe events.
  acceptedAt: null,
  firstKeyframes: [],
  framesDecoded: async () => ({}),
  frameSizes: async () => ({}),
  request: async () => { throw new Error('not connected to the relay yet'); },
  peerConnections: {},
};
window.pkDemo = pkDemo;

/**
 * Room and user come from the query string; by default the relay's WebSocket (/rtc) and token
 * endpoint (/demo/token) are on the page's own origin, `relay=` and `tokenBase=` override them.
 */
export function settings() {
  const wsScheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    room: query.get('room') || '',
    user: query.get('user') || '',
    relayUrl: query.get('relay') || `${wsScheme}//${location.host}/rtc`,
    tokenBase: query.get('tokenBase') || new URL('token', location.href).href,
    query,
  };
}

/** Appends a line to the on-page log and the console (the test driver collects the latter). */
export function log(text) {
  const line = `${new Date().toISOString().slice(11, 23)} ${text}`;
  console.log(`[pkdemo] ${line}`);
  pkDemo.log.push(line);
  if (pkDemo.log.length > 200) pkDemo.log.shift();
  const box = document.getElementById('log');
  if (box) {
    box.textContent = pkDemo.log.join('\n');
    box.scrollTop = box.scrollHeight;
  }
}

let statusExtras = () => '';

export function setStatusExtras(fn) {
  statusExtras = fn;
  renderStatus();
}

export function setState(state) {
  if (pkDemo.state !== state) log(`state: ${pkDemo.state} -> ${state}`);
  pkDemo.state = state;
  renderStatus();
}

export function renderStatus() {
  const extra = statusExtras();
  const connection = pkDemo.connection === 'connected' ? '' : ` (${pkDemo.connection})`;
  document.getElementById('status').textContent = `State: ${pkDemo.state}${connection}${extra ? ' · ' + extra : ''}`;
}

/** Shows an error; relay errors keep their numeric code (docs/PROTOCOL.md section 6). */
export function showError(err, context) {
  const fromBrowser = typeof DOMException !== 'undefined' && err instanceof DOMException;
  const entry = {
    method: err.method || context || undefined,
    code: fromBrowser ? err.name : (err.code !== undefined ? err.code : 'error'),
    message: err.message || String(err),
  };
  pkDemo.lastError = entry;
  const text = `${entry.method ? entry.method + ': ' : ''}error ${entry.code}: ${entry.message}`;
  log(`ERROR ${text}`);
  const box = document.getElementById('error');
  box.textContent = text;
  box.hidden = false;
}

export function clearError() {
  document.getElementById('error').hidden = true;
}

/**
 * A development token from the relay itself (only while it runs on its public development key);
 * a real app asks its own room server.
 */
export async function fetchToken(tokenBase, room, user) {
  const url = new URL(tokenBase, location.href);
  url.searchParams.set('room', room);
  url.searchParams.set('user', user);
  const response = await fetch(url.href, {cache: 'no-store'});
  if (!response.ok) {
    const hint = response.status === 404 ? ' (the relay serves development tokens only on its development key)' : '';
    throw Object.assign(new Error(`GET ${url.pathname} answered HTTP ${response.status}${hint}`), {method: 'token', code: response.status});
  }
  return (await response.json()).token;
}

/** Fills the identity line, or shows the room/user form when the query lacks them. */
export function requireIdentity(role) {
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

/**
 * Wires a client into the page: log, connection state and reconnections, errors, and the
 * console hooks. `onReconnected` lets a page restore its own state afterwards.
 */
export function follow(client, onReconnected) {
  pkDemo.client = client;
  pkDemo.request = (method, params) => client.request(method, params || {});
  Object.defineProperty(pkDemo.peerConnections, 'receive', {get: () => client.receivePeerConnection, enumerable: true});
  client.on('onConnectionStateChanged', (d) => {
    pkDemo.connection = d.state;
    if (d.state === 'reconnecting' || d.reason === 'reconnected' || d.reason === 'reconnectFailed') {
      pkDemo.reconnects.push({state: d.state, reason: d.reason, attempt: d.attempt});
    }
    if (d.state === 'reconnecting') setState('reconnecting');
    if (d.reason === 'reconnectFailed') {
      showError(d.error || {code: ErrorCode.ReconnectFailed, message: 'could not reconnect'}, 'reconnect');
      setState('disconnected');
    }
    renderStatus();
  });
  client.on('onReconnected', (d) => {
    log(`reconnected after ${d.attempts} attempt(s), ${d.durationMs} ms; not restored: ${JSON.stringify(d.failures)}`);
    if (onReconnected) onReconnected(d);
  });
  client.on('onError', ({error, context}) => showError(error, context));
  client.on('onTransportStateChanged', (d) => {
    if (d.state !== 'connected') log(`relay says transport ${d.transportId} ${d.state}: ${d.reason || ''}`);
  });
}

/** Shows that the relay took the user out of the room (kick, dismissal, token expiry, …). */
export function followExit(room) {
  room.on('onExitRoom', (d) => {
    showError({method: 'onExitRoom', code: d.code, message: `${d.message} (reason ${d.reason})`});
    setState('left');
  });
}

/** Decoded frames per publisher (all its video receivers) and the size decoded now. */
export function followVideoStats(client) {
  pkDemo.framesDecoded = async () => {
    const totals = {};
    for (const s of await client.getRemoteVideoStats()) {
      if (s.streamIndex === 'main') totals[s.userId] = (totals[s.userId] || 0) + s.framesDecoded;
    }
    return totals;
  };
  pkDemo.frameSizes = async () => {
    const sizes = {};
    for (const s of await client.getRemoteVideoStats()) {
      if (s.active && s.streamIndex === 'main' && s.frameWidth) sizes[s.userId] = {width: s.frameWidth, height: s.frameHeight};
    }
    return sizes;
  };
}

/**
 * The grid of remote publishers: a tile per user publishing its main stream in the room, showing
 * the SDK's MediaStream of that user (the same object across renegotiations and reconnections).
 */
export class TileGrid {
  constructor(room, container, emptyText, decorate) {
    this.client = room.client;
    this.container = container;
    this.emptyText = emptyText;
    this.decorate = decorate || null;
    this.tiles = new Map();
    room.on('onUserPublishStream', (d) => d.streamIndex === 'main' && this.show(d.userId));
    room.on('onUserUnpublishStream', (d) => d.streamIndex === 'main' && this.remove(d.userId));
    room.on('onUserLeave', (d) => this.remove(d.userId));
    room.on('onUserJoined', (d) => this.caption(d.userId));
    this.room = room;
    // A stream that gained a track plays it only after being assigned again.
    this.client.on('onRemoteTrackAdded', (d) => {
      const tile = d.streamIndex === 'main' && this.tiles.get(d.userId);
      if (tile) {
        tile.video.srcObject = null;
        tile.video.srcObject = d.mediaStream;
        this.watchFirstFrame(tile);
      }
    });
    // Users already publishing when the room was joined.
    for (const user of room.remoteUsers.values()) if (user.streams.has('main')) this.show(user.userId);
    this.renderEmpty();
  }

  show(userId) {
    let tile = this.tiles.get(userId);
    if (!tile) {
      const element = document.createElement('figure');
      element.className = 'tile';
      element.dataset.userId = userId;
      const video = document.createElement('video');
      Object.assign(video, {autoplay: true, playsInline: true, muted: true, title: 'Click to unmute'});
      // Browsers only autoplay muted media; a click on the tile turns the sound on.
      video.addEventListener('click', () => { video.muted = !video.muted; });
      video.srcObject = this.client.remoteMediaStream(userId);
      const caption = document.createElement('figcaption');
      element.append(video, caption);
      tile = {element, video, caption, firstFrameAt: null};
      this.tiles.set(userId, tile);
      this.watchFirstFrame(tile);
      if (this.decorate) this.decorate(userId, tile);
      this.container.append(element);
      log(`tile added: ${userId}`);
    }
    this.caption(userId);
    this.renderEmpty();
    return tile;
  }

  // When the tile first shows a decoded video frame (wall clock, milliseconds): what a viewer
  // sees, for the PK-start measurement of the browser test.
  watchFirstFrame(tile) {
    if (tile.firstFrameAt !== null || typeof tile.video.requestVideoFrameCallback !== 'function') return;
    tile.video.requestVideoFrameCallback(() => {
      if (tile.firstFrameAt === null) tile.firstFrameAt = Date.now();
    });
  }

  /** `{userId: ms}`: when each tile showed its first video frame (Date.now()), for those that have. */
  firstFrames() {
    const frames = {};
    for (const [userId, tile] of this.tiles) if (tile.firstFrameAt !== null) frames[userId] = tile.firstFrameAt;
    return frames;
  }

  caption(userId) {
    const tile = this.tiles.get(userId);
    const user = this.room.remoteUsers.get(userId);
    if (tile) tile.caption.textContent = user && user.forwardedFrom ? `${userId} (PK partner from room ${user.forwardedFrom})` : userId;
  }

  remove(userId) {
    const tile = this.tiles.get(userId);
    if (!tile) return;
    tile.element.remove();
    this.tiles.delete(userId);
    log(`tile removed: ${userId}`);
    this.renderEmpty();
  }

  get(userId) {
    return this.tiles.get(userId);
  }

  ids() {
    return [...this.tiles.keys()];
  }

  renderEmpty() {
    let note = this.container.querySelector('.empty');
    if (this.tiles.size === 0 && !note) {
      note = Object.assign(document.createElement('p'), {className: 'empty', textContent: this.emptyText});
      this.container.append(note);
    } else if (this.tiles.size > 0 && note) {
      note.remove();
    }
  }
}
