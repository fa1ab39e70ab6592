/**
 * PKRelay web SDK: one dependency-free ES module for browsers (and, for its logic, node).
 *
 * A `PKRelayClient` is one control WebSocket, which is one user for the relay. It joins rooms
 * with tokens (`joinRoom` gives a `Room`), publishes MediaStreams on WebRTC transports, receives
 * every subscription on one receiving transport, and keeps all of it alive across a dropped
 * WebSocket or a failed transport. The protocol it speaks is docs/PROTOCOL.md; the guide and
 * reference are docs/SDK.md; the types are in pkrelay.d.ts next to this file.
 */

/** The SDK's version. */
export const VERSION = '1.0.0';

// ---------------------------------------------------------------------------------------------
// Numbers of the protocol (docs/PROTOCOL.md sections 5 and 6)

/**
 * Error codes: every code the relay sends (PROTOCOL.md section 6) and the SDK's own (4900-4999,
 * a range the relay does not use). Where a commercial SDK numbers the same condition, its number
 * is reused: a PK link request that times out is TRTC's -3326 (connect) or -3327 (disconnect).
 */
export const ErrorCode = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  MessageTooLarge: -32001,
  ShuttingDown: -32002,
  InvalidToken: -1000,
  NoPublishPermission: -1002,
  NoSubscribePermission: -1003,
  DuplicateLogin: -1004,
  KickedOut: -1006,
  TokenExpired: -1009,
  RoomDismissed: -1011,
  OverSubscribeLimit: -1070,
  OverPublishLimit: -1080,
  InvisibleCannotPublish: -2009,
  CallerIsAudience: -3330,
  NotInRoom: 4001,
  AlreadyInRoom: 4002,
  TransportNotFound: 4003,
  TransportState: 4004,
  NoMediaPort: 4005,
  Unsupported: 4006,
  StreamNotFound: 4007,
  TooManyTransports: 4008,
  VisibilityRefused: 4009,
  WrongState: 4010,
  ForwardNotStarted: 4011,
  ForwardTargetLimit: 4012,
  ForwardAlreadyStarted: 4013,
  MessageTooLong: 4014,
  NoForwardPermission: 4015,
  DTLSFailed: 4016,
  ICEFailed: 4017,
  SDPRejected: 4018,
  RateLimited: 4029,
  RoomOnAnotherNode: 4030,
  ClusterUnavailable: 4031,
  MoveToRoomNode: 4032,
  ForwardInvalidArgument: 1201,
  ForwardInvalidToken: 1202,
  ForwardResponse: 1203,
  ForwardRemoteKicked: 1204,
  ForwardNotSupport: 1205,
  LinkConnectTimeout: -3326,
  LinkDisconnectTimeout: -3327,
  LinkInvalidParameter: -3328,
  LinkLimitReached: -102032,
  RoomHasNoLink: -102042,
  UserStartedNoLink: -102043,
  TargetRoomNotFound: -102046,
  TargetRoomLinkLimit: -102047,
  TargetUserNotFound: -102048,
  InvitationInvalidArgument: 1,
  InvitationNotStarted: 2,
  InvitationAlreadyEnded: 3,
  InvitationAlreadyAccepted: 4,
  InvitationAlreadySent: 5,
  // The SDK's own codes.
  RequestTimeout: 4901,
  NotConnected: 4902,
  ConnectFailed: 4903,
  ReconnectFailed: 4904,
  MediaFailed: 4905,
  TokenProviderFailed: 4906,
});

/** Video stream types (TRTC): 0 big, 1 small; PKRelay's 2 medium (the middle of three simulcast encodings). */
export const VideoStreamType = Object.freeze({Big: 0, Small: 1, Medium: 2});

/** `setSubscribeFallbackOption` (Volcengine, Agora): what a weak downlink may cost a subscription. */
export const SubscribeFallbackOption = Object.freeze({Disabled: 0, VideoStreamLow: 1, AudioOnly: 2});

/** `setRemoteUserPriority` (Volcengine): which publisher's video keeps its layer longest. */
export const RemoteUserPriority = Object.freeze({Low: 0, Medium: 100, High: 200});

/** `onSimulcastSubscribeFallback.reason`: Volcengine's numbers for bandwidth, PKRelay's for the rest. */
export const FallbackOrRecoverReason = Object.freeze({
  Unknown: -1, SubscribeFallbackByBandwidth: 0, SubscribeRecoverByBandwidth: 2, SubscriberRequest: 100, PublisherChange: 101,
});

/** Media type mask (Volcengine): 1 audio, 2 video, 3 both. */
export const MediaType = Object.freeze({Audio: 1, Video: 2, AudioAndVideo: 3});

/** `onUserUnpublishStream.reason` (Volcengine). */
export const UnpublishReason = Object.freeze({
  Unpublish: 0, PublishFailed: 1, KeepLiveFailed: 2, ClientDisconnected: 3, Republish: 4, Other: 5,
  PrivilegeTokenExpired: 6,
});

/** `onUserLeave.reason` (Volcengine). */
export const LeaveReason = Object.freeze({Quit: 0, Dropped: 1, SwitchToInvisible: 2, KickedByAdmin: 3});

/**
 * `onExitRoom.reason` (0-2 TRTC, 3-4 PKRelay; 100 the SDK's own: a rejoin after a reconnection
 * was refused for a cause the protocol's reasons do not cover, with code ReconnectFailed).
 */
export const ExitRoomReason = Object.freeze({Left: 0, Kicked: 1, RoomDismissed: 2, TokenExpired: 3, ServerShutdown: 4, RejoinFailed: 100});

/** Subscribe states (Volcengine). */
export const SubscribeState = Object.freeze({Success: 0, FailedNotInRoom: 1, FailedStreamNotFound: 2, FailedOverLimit: 3});

/** Forward states (Volcengine ForwardStreamState). */
export const ForwardState = Object.freeze({Idle: 0, Success: 1, Failure: 2});

/** Forward events (Volcengine ForwardStreamEvent). */
export const ForwardEvent = Object.freeze({Disconnected: 0, Connected: 1, Interrupt: 2, DstRoomUpdated: 3, UnexpectedAPICall: 4});

/** Invitation states (Agora RTM). */
export const InvitationState = Object.freeze({
  Idle: 0, SentToRemote: 1, ReceivedByRemote: 2, Accepted: 3, Refused: 4, Canceled: 5, Failure: 6,
});

/** Network quality (TRTC scale). */
export const NetworkQuality = Object.freeze({Unknown: 0, Excellent: 1, Good: 2, Poor: 3, Bad: 4, Vbad: 5, Down: 6});

/** States of the client's connection to the relay (`onConnectionStateChanged`). */
export const ConnectionState = Object.freeze({
  Disconnected: 'disconnected', Connecting: 'connecting', Connected: 'connected', Reconnecting: 'reconnecting',
});

/** Every event the relay sends (PROTOCOL.md section 4); the SDK emits them under these names. */
export const RELAY_EVENTS = Object.freeze([
  'onRoomStateChanged', 'onUserJoined', 'onUserLeave', 'onUserPublishStream', 'onUserUnpublishStream',
  'onStreamSubscribed', 'onUserVisibilityChanged', 'onSwitchRole', 'onTokenWillExpire', 'onExitRoom',
  'onForwardStreamStateChanged', 'onForwardStreamEvent', 'onForwardStreamFirstKeyframe', 'onConnectOtherRoom',
  'onDisconnectOtherRoom', 'onInvitationReceived', 'onInvitationStateChanged', 'onRoomMessageReceived',
  'onUserMessageReceived', 'onRemoteAudioPropertiesReport', 'onActiveSpeaker', 'onNetworkQuality',
  'onTransportOffer', 'onTransportStateChanged', 'onSimulcastSubscribeFallback', 'onSubscribedLayersChanged',
]);

/** Events the SDK adds: connection, reconnection, remote tracks, publications, background errors. */
export const SDK_EVENTS = Object.freeze([
  'onConnectionStateChanged', 'onReconnected', 'onRemoteTrackAdded', 'onRemoteTrackRemoved',
  'onPublicationStateChanged', 'onError',
]);

const ALL_EVENTS = new Set([...RELAY_EVENTS, ...SDK_EVENTS]);

// The events a Room emits: those whose data names the room. Transport events and the
// connection's and remote tracks' events belong to the client alone.
const CLIENT_ONLY_EVENTS = new Set([
  'onTransportOffer', 'onTransportStateChanged', 'onConnectionStateChanged', 'onReconnected', 'onRemoteTrackAdded',
  'onRemoteTrackRemoved',
]);
const ROOM_EVENTS = new Set([...ALL_EVENTS].filter((event) => !CLIENT_ONLY_EVENTS.has(event)));

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * An error of the relay (its `code`, `message` and, for 4030 and 4032, `data`) or of the SDK (codes
 * 4901-4906), with the method it answered and, when it wraps another error, that as `cause`.
 */
export class PKRelayError extends Error {
  /**
   * @param {number} code the relay's error code, or one of the SDK's
   * @param {string} message a sentence for developers
   * @param {string} [method] the request it answers
   * @param {object} [data] machine-readable details (4030 and 4032: `{controlURL, nodeId}`)
   * @param {*} [cause] the error this one reports (e.g. what a tokenProvider threw)
   */
  constructor(code, message, method, data, cause) {
    super(message);
    this.name = 'PKRelayError';
    this.code = code;
    this.method = method;
    this.data = data;
    if (cause !== undefined) this.cause = cause;
  }
}

// The errors that are the relay's own answers (not the SDK's: timeouts, a closed channel).
const ANSWERED_BY_RELAY = new WeakSet();

// Failed publish transports republished in a row before a publication is given up (state failed).
const REPUBLISH_ATTEMPTS = 5;

// How long a peer connection may stay `disconnected` after an ICE restart before the next one.
const ICE_RESTART_RETRY_MS = 5000;

// Codes after which retrying a rejoin with the same token cannot succeed.
const FATAL_JOIN_CODES = new Set([-1000, -1009, -32602, 4009]);

// ---------------------------------------------------------------------------------------------
// Events

/** A small typed event emitter: `on` refuses names the SDK never emits, so a typo fails loudly. */
class Emitter {
  constructor(events = ALL_EVENTS) {
    this._handlers = new Map();
    this._events = events;
  }

  /**
   * Adds a handler for an event of `RELAY_EVENTS` or `SDK_EVENTS` (a Room: of those it emits).
   * @returns {() => void} a function that removes the handler again
   */
  on(event, handler) {
    if (!this._events.has(event)) {
      throw new TypeError(ALL_EVENTS.has(event)
        ? `'${event}' is an event of the client, never emitted on a Room`
        : `unknown PKRelay event '${event}'`);
    }
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    if (!this._handlers.has(event)) this._handlers.set(event, new Set());
    this._handlers.get(event).add(handler);
    return () => this.off(event, handler);
  }

  /** Adds a handler that runs for the next such event only. */
  once(event, handler) {
    const off = this.on(event, (data) => {
      off();
      handler(data);
    });
    return off;
  }

  /** Removes a handler added with `on`. */
  off(event, handler) {
    const set = this._handlers.get(event);
    if (set) set.delete(handler);
  }

  _emit(event, data) {
    const set = this._handlers.get(event);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(data);
      } catch (error) {
        // An app handler that throws must not break the SDK's bookkeeping. It is reported on the
        // client's onError; an onError handler that throws is only logged, never re-reported,
        // so a faulty onError handler cannot loop.
        if (event === 'onError') console.error('PKRelay: an onError handler threw', error);
        else this._handlerFailed(error, event, data);
      }
    }
  }

  _listenerCount(event) {
    const set = this._handlers.get(event);
    return set ? set.size : 0;
  }

  _handlerFailed(error) {
    console.error('PKRelay: an event handler threw', error);
  }
}

// ---------------------------------------------------------------------------------------------
// The control channel: requests, responses, timeouts

const defaultClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  now: () => Date.now(),
};

/**
 * One WebSocket to the relay. Matches responses to requests by id, rejects a request that gets no
 * answer within its timeout or whose socket closes, and hands events to `onEvent`.
 * Time comes from `clock` so that tests can script it.
 */
export class ControlChannel {
  /**
   * @param {object} options `{url, WebSocket, clock, requestTimeoutMs, onEvent, onClose, onLateAnswer, log}`
   */
  constructor(options) {
    this.url = options.url;
    this._WebSocket = options.WebSocket;
    this._clock = options.clock || defaultClock;
    this._timeoutMs = options.requestTimeoutMs || 10000;
    this._onEvent = options.onEvent || (() => {});
    this._onClose = options.onClose || (() => {});
    this._onLateAnswer = options.onLateAnswer || (() => {});
    // Requests that timed out, by id: their answer may still come, and what it did may need undoing.
    this._timedOut = new Map();
    this._log = options.log || (() => {});
    this._nextId = 1;
    this._pending = new Map();
    this._ws = null;
    this._closedByUs = false;
    this.isOpen = false;
  }

  /** Opens the WebSocket; rejects with ConnectFailed if it closes or errs before opening. */
  open(timeoutMs = this._timeoutMs) {
    return new Promise((resolve, reject) => {
      let ws;
      try {
        ws = new this._WebSocket(this.url);
      } catch (e) {
        reject(new PKRelayError(ErrorCode.ConnectFailed, `cannot open a WebSocket to ${this.url}: ${e.message}`, 'connect'));
        return;
      }
      this._ws = ws;
      let settled = false;
      const timer = this._clock.setTimeout(() => {
        if (settled) return;
        settled = true;
        this._closedByUs = true;
        try { ws.close(); } catch (e) { /* already closed */ }
        reject(new PKRelayError(ErrorCode.ConnectFailed, `the relay at ${this.url} did not accept the WebSocket within ${timeoutMs} ms`, 'connect'));
      }, timeoutMs);
      ws.onopen = () => {
        if (settled) return;
        settled = true;
        this._clock.clearTimeout(timer);
        this.isOpen = true;
        resolve();
      };
      ws.onmessage = (e) => this._receive(e.data);
      ws.onerror = () => {};
      ws.onclose = (e) => {
        this._clock.clearTimeout(timer);
        const wasOpen = this.isOpen;
        this.isOpen = false;
        const reason = `the control channel closed (code ${e && e.code}${e && e.reason ? ', ' + e.reason : ''})`;
        this._failAll(new PKRelayError(ErrorCode.NotConnected, reason));
        if (!settled) {
          settled = true;
          reject(new PKRelayError(ErrorCode.ConnectFailed, `cannot reach the relay at ${this.url}`, 'connect'));
          return;
        }
        if (wasOpen && !this._closedByUs) this._onClose({code: e && e.code, reason});
      };
    });
  }

  /** Closes the WebSocket without reporting it as a drop; unanswered requests fail with NotConnected. */
  close() {
    this._closedByUs = true;
    this.isOpen = false;
    this._failAll(new PKRelayError(ErrorCode.NotConnected, 'the client closed the control channel'));
    if (this._ws) {
      try { this._ws.close(1000); } catch (e) { /* already closed */ }
    }
  }

  /**
   * Sends a request and resolves with its result, or rejects with a PKRelayError: the relay's,
   * RequestTimeout (or `timeoutCode`) when no answer comes in time, NotConnected when the
   * channel is or goes down.
   */
  request(method, params = {}, {timeoutMs = this._timeoutMs, timeoutCode = ErrorCode.RequestTimeout} = {}) {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new PKRelayError(ErrorCode.NotConnected, 'the control channel is not open', method));
        return;
      }
      const id = this._nextId++;
      const timer = this._clock.setTimeout(() => {
        if (!this._pending.has(id)) return;
        this._pending.delete(id);
        this._timedOut.set(id, {method, params});
        // Bounded: a relay that never answers must not grow it without end.
        if (this._timedOut.size > 64) this._timedOut.delete(this._timedOut.keys().next().value);
        reject(new PKRelayError(timeoutCode, `no answer to ${method} within ${timeoutMs} ms`, method));
      }, timeoutMs);
      this._pending.set(id, {resolve, reject, timer, method});
      this._log('->', method, params);
      try {
        this._ws.send(JSON.stringify({id, method, params}));
      } catch (e) {
        this._pending.delete(id);
        this._clock.clearTimeout(timer);
        reject(new PKRelayError(ErrorCode.NotConnected, `cannot send ${method}: ${e.message}`, method));
      }
    });
  }

  /** Requests sent and not answered yet. */
  get pendingCount() {
    return this._pending.size;
  }

  _receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (e) {
      this._log('unreadable message', String(text).slice(0, 200));
      return;
    }
    if (message && typeof message.event === 'string') {
      this._onEvent(message.event, message.data || {});
      return;
    }
    let id = message.id;
    // The relay answers every frame in order, and a frame it could not read is answered with
    // id null: that answer belongs to the oldest request still waiting.
    if (id === null || id === undefined) {
      const oldest = this._pending.keys().next();
      if (oldest.done) return;
      id = oldest.value;
    }
    const waiter = this._pending.get(id);
    if (!waiter) {
      const late = this._timedOut.get(id);
      this._log('answer to a request no longer waited for', id);
      if (late) {
        this._timedOut.delete(id);
        if (!message.error) this._onLateAnswer(late.method, late.params, message.result || {});
      }
      return;
    }
    this._pending.delete(id);
    this._clock.clearTimeout(waiter.timer);
    if (message.error) {
      const {code, message: text2, data} = message.error;
      const error = new PKRelayError(code, text2, waiter.method, data);
      ANSWERED_BY_RELAY.add(error);
      waiter.reject(error);
    } else {
      waiter.resolve(message.result || {});
    }
  }

  _failAll(error) {
    for (const {reject, timer, method} of this._pending.values()) {
      this._clock.clearTimeout(timer);
      reject(new PKRelayError(error.code, error.message, method));
    }
    this._pending.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Media: one RTCPeerConnection per relay transport

// The publish side: the browser writes the offer; max-bundle keeps it to one transport.
const PUBLISH_CONFIG = {bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require'};
// The receive side: the relay writes the offers and bundles every section itself, an inactive
// one included (PROTOCOL.md: sections are never removed; a section whose track ended stays,
// a=inactive, in BUNDLE). Nothing is asked of the browser's bundle policy, so it keeps the default.
const RECEIVE_CONFIG = {bundlePolicy: 'balanced', rtcpMuxPolicy: 'require'};

/**
 * A peer connection's configuration with the STUN and TURN servers the relay named for the
 * transport (`createTransport`'s `iceServers`, credentials included): a browser whose network
 * blocks UDP to the relay then reaches it through TURN by itself.
 */
function withIceServers(config, transport) {
  return Array.isArray(transport.iceServers) && transport.iceServers.length ? {...config, iceServers: transport.iceServers} : config;
}

/**
 * Simulcast encodings for `publish(stream, {simulcast: true})`, smallest first: the relay takes
 * the last rid as the big video and the first as the small one (PROTOCOL.md, dual stream).
 */
export const DEFAULT_SIMULCAST_ENCODINGS = Object.freeze([
  Object.freeze({rid: 'q', scaleResolutionDownBy: 2, maxBitrate: 200000}),
  Object.freeze({rid: 'f', maxBitrate: 1200000}),
]);

/** Three simulcast encodings (`publish(stream, {simulcast: 3})`), smallest first: the relay's small, medium and big. */
export const THREE_LAYER_SIMULCAST_ENCODINGS = Object.freeze([
  Object.freeze({rid: 'q', scaleResolutionDownBy: 4, maxBitrate: 150000}),
  Object.freeze({rid: 'h', scaleResolutionDownBy: 2, maxBitrate: 500000}),
  Object.freeze({rid: 'f', maxBitrate: 1200000}),
]);

/** The first `a=ssrc` of the media section with `a=mid:<mid>` in an SDP, or null. */
function ssrcOfMid(sdp, mid) {
  if (typeof sdp !== 'string' || mid === undefined || mid === null) return null;
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    if (!new RegExp(`^a=mid:${mid.replace(/[^\w-]/g, '\\$&')}\\s*$`, 'm').test(section)) continue;
    const match = /^a=ssrc:(\d+)/m.exec(section);
    return match ? Number(match[1]) : null;
  }
  return null;
}

/** The stream key of a publisher's stream: its userId for `main`, `<userId>-screen` for the screen. */
function streamKey(userId, streamIndex) {
  return streamIndex === 'screen' ? `${userId}-screen` : userId;
}

/**
 * The receiving WebRTC transport of a client: every subscription of every room arrives on it.
 * Answers the relay's offers one at a time, in order, and keeps one MediaStream per remote
 * stream that outlives renegotiations and reconnections.
 */
class ReceiveTransport {
  constructor(client) {
    this.client = client;
    this.id = null;
    this.pc = null;
    this.closed = false;
    this._answering = Promise.resolve();
    // One entry per transceiver (section): a section the relay reuses for a later track replaces
    // its entry, so statistics name the current publisher and listeners do not pile up.
    this.receivers = new Map();   // transceiver → {userId, streamIndex, kind, receiver, transceiver, detach}
  }

  /** Creates the relay transport (on `roomId`'s media thread) and its peer connection; resolves with the transport id. */
  async open(roomId) {
    // receiveOnly: the relay may place it on another media thread than the room's publishers
    // when the room's audience has outgrown one.
    const params = roomId === undefined ? {kind: 'webrtc', receiveOnly: true} : {kind: 'webrtc', roomId, receiveOnly: true};
    const result = await this.client._request('createTransport', params);
    this.id = result.transportId;
    const PC = this.client._RTCPeerConnection;
    if (!PC) throw new PKRelayError(ErrorCode.MediaFailed, 'RTCPeerConnection is not available here', 'createTransport');
    this.pc = new PC(withIceServers(RECEIVE_CONFIG, result));
    this.pc.ontrack = (e) => this._trackArrived(e);
    this.pc.onconnectionstatechange = () => {
      if (this.closed) return;
      this.client._log(`receive transport ${this.id}: ${this.pc.connectionState}`);
      if (this.pc.connectionState === 'failed') this.client._transportFailed(this, 'the receive transport lost ICE connectivity');
      if (this.pc.connectionState === 'disconnected') this._restartIce();
    };
    return this.id;
  }

  /**
   * An ICE restart after the browser's ICE went `disconnected` (a network change): the relay
   * sends an offer with new credentials, answered like any other; the transport and its tracks
   * stay. Tried again while the connection stays disconnected; `failed` recovers as before.
   */
  async _restartIce() {
    if (this._restarting || this.closed) return;
    this._restarting = true;
    try {
      await this.client._request('restartIce', {transportId: this.id});
      this.client._log(`receive transport ${this.id}: ICE restart`);
    } catch (error) {
      if (!this.closed && error.code !== ErrorCode.NotConnected) this.client._reportError({error, context: 'restartIce'});
    } finally {
      this._restarting = false;
    }
    if (this.closed) return;
    this.client._clock.setTimeout(() => {
      if (!this.closed && this.pc.connectionState === 'disconnected') this._restartIce();
    }, ICE_RESTART_RETRY_MS);
  }

  /**
   * Queues the answer to an onTransportOffer behind the answers to earlier offers. An answer the
   * relay refuses leaves the offer pending and blocks every later one (PROTOCOL.md, receive
   * offers): it is sent once more, and if that fails too the receiving transport is recovered
   * as after a transport failure.
   */
  offer({revision, sdp}) {
    this._answering = this._answering.then(async () => {
      if (this.closed) return;
      let failure;
      try {
        await this.pc.setRemoteDescription({type: 'offer', sdp});
        await this.pc.setLocalDescription(await this.pc.createAnswer());
      } catch (error) {
        failure = asError(error, 'answerTransportOffer');
      }
      for (let tries = 0; !failure && tries < 2; tries++) {
        try {
          // The relay is ICE-lite and learns the address from the browser's checks: the answer
          // goes out at once, without waiting for candidates.
          await this.client._request('answerTransportOffer', {transportId: this.id, revision, sdp: this.pc.localDescription.sdp});
          return;
        } catch (error) {
          // A closed channel is the reconnection's to handle.
          if (this.closed || error.code === ErrorCode.NotConnected) return;
          if (tries === 1) failure = error;
        }
      }
      if (this.closed) return;
      this.client._reportError({error: failure, context: 'answerTransportOffer'});
      this.client._transportFailed(this, `the answer to offer ${revision} was refused: ${failure.message}`);
    });
    return this._answering;
  }

  /**
   * Whose stream a track of section `mid` is. The msid stream id is the userId for `main` and
   * `<userId>-screen` for the screen (PROTOCOL.md, receive offers), and the track id only adds
   * `-audio`/`-video`, so `bob-screen` is bob's screen or the main stream of a user named
   * `bob-screen`. The section's SSRC, which onStreamSubscribed announced with its user and
   * stream, settles it; without it, the streams the rooms know of; the suffix comes last.
   */
  _streamOf(id, mid) {
    const rooms = [...this.client.rooms.values()];
    const ssrc = ssrcOfMid(this.pc && this.pc.remoteDescription && this.pc.remoteDescription.sdp, mid);
    if (ssrc !== null) {
      for (const room of rooms) {
        for (const user of room.remoteUsers.values()) {
          for (const [streamIndex, stream] of user.streams) {
            const tracks = stream.subscription && stream.subscription.tracks;
            if (tracks && tracks.some((t) => t.ssrc === ssrc)) return {userId: user.userId, streamIndex};
          }
        }
      }
    }
    if (!id.endsWith('-screen')) return {userId: id, streamIndex: 'main'};
    const base = id.slice(0, -'-screen'.length);
    const publishes = (userId, streamIndex) => rooms.some((room) => {
      const user = room.remoteUsers.get(userId);
      return Boolean(user && user.streams.has(streamIndex));
    });
    if (publishes(id, 'main') && !publishes(base, 'screen')) return {userId: id, streamIndex: 'main'};
    return {userId: base, streamIndex: 'screen'};
  }

  _trackArrived(e) {
    const browserStream = e.streams[0];
    const id = browserStream ? browserStream.id : `mid-${e.transceiver.mid}`;
    const {userId, streamIndex} = this._streamOf(id, e.transceiver && e.transceiver.mid);
    const key = e.transceiver || e.receiver;
    const prior = this.receivers.get(key);
    if (prior) {
      prior.detach();
      // The section carried another stream before: the track leaves that stream's MediaStream.
      if (prior.userId !== userId || prior.streamIndex !== streamIndex) prior.remove();
    }
    const mediaStream = this.client._remoteStream(userId, streamIndex);
    for (const old of mediaStream.getTracks()) {
      if (old.kind === e.track.kind && old !== e.track) mediaStream.removeTrack(old);
    }
    if (!mediaStream.getTracks().includes(e.track)) mediaStream.addTrack(e.track);
    const removed = () => {
      if (!mediaStream.getTracks().includes(e.track)) return;
      mediaStream.removeTrack(e.track);
      this.client._emit('onRemoteTrackRemoved', {userId, streamIndex, kind: e.track.kind, track: e.track, mediaStream});
    };
    // A section the relay makes inactive takes the track out of the browser's stream.
    const onRemoveTrack = (ev) => {
      if (ev.track === e.track) removed();
    };
    if (browserStream) browserStream.addEventListener('removetrack', onRemoveTrack);
    e.track.addEventListener('ended', removed);
    const detach = () => {
      e.track.removeEventListener('ended', removed);
      if (browserStream) browserStream.removeEventListener('removetrack', onRemoveTrack);
    };
    this.receivers.set(key, {userId, streamIndex, kind: e.track.kind, receiver: e.receiver, transceiver: e.transceiver, detach, remove: removed});
    this.client._log(`track: ${e.track.kind} of ${userId} (${streamIndex}, mid ${e.transceiver && e.transceiver.mid})`);
    this.client._emit('onRemoteTrackAdded', {userId, streamIndex, kind: e.track.kind, track: e.track, mediaStream});
  }

  /** Inbound video statistics per remote stream, from the receivers in use now. */
  async videoStats() {
    const out = [];
    for (const {userId, streamIndex, kind, receiver, transceiver} of this.receivers.values()) {
      if (kind !== 'video') continue;
      const active = receiver.track.readyState === 'live'
        && !(transceiver && (transceiver.stopped || transceiver.currentDirection === 'inactive'));
      let report;
      try {
        report = await receiver.getStats();
      } catch (e) {
        continue;
      }
      report.forEach((s) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        out.push({
          userId, streamIndex, active, framesDecoded: s.framesDecoded || 0, frameWidth: s.frameWidth,
          frameHeight: s.frameHeight, packetsReceived: s.packetsReceived, packetsLost: s.packetsLost,
          keyFramesDecoded: s.keyFramesDecoded, ssrc: s.ssrc, nackCount: s.nackCount, pliCount: s.pliCount, firCount: s.firCount,
        });
      });
    }
    return out;
  }

  /** Closes the peer connection (and, with `tellRelay`, the relay transport); its tracks end. */
  close(tellRelay) {
    if (this.closed) return;
    this.closed = true;
    if (this.pc) {
      this.pc.ontrack = null;
      this.pc.onconnectionstatechange = null;
      try { this.pc.close(); } catch (e) { /* already closed */ }
    }
    // The tracks of a closed peer connection end; the app learns it per track.
    for (const {userId, streamIndex, receiver, detach} of this.receivers.values()) {
      detach();
      const mediaStream = this.client._remoteStreams.get(streamKey(userId, streamIndex));
      if (mediaStream && mediaStream.getTracks().includes(receiver.track)) {
        mediaStream.removeTrack(receiver.track);
        this.client._emit('onRemoteTrackRemoved', {userId, streamIndex, kind: receiver.track.kind, track: receiver.track, mediaStream});
      }
    }
    if (tellRelay && this.id !== null) this.client._request('closeTransport', {transportId: this.id}).catch(() => {});
  }
}

/**
 * A stream this client publishes in a room: its MediaStream's tracks on a WebRTC transport of
 * their own. Survives reconnection: the SDK publishes the same tracks again on a new transport.
 */
export class LocalPublication {
  constructor(room, mediaStream, options) {
    /** The room it is published in. */
    this.room = room;
    /** `'main'` or `'screen'`. */
    this.streamIndex = options.streamIndex || 'main';
    /** The published MediaStream (the app's own object). */
    this.mediaStream = mediaStream;
    /** The encodings of the video track (two with simulcast), or null. */
    this.encodings = resolveEncodings(options);
    /** The relay's transport id; changes when the SDK publishes again after a failure. */
    this.transportId = null;
    /** The RTCPeerConnection of the transport. */
    this.pc = null;
    /** Media type mask the relay accepted (1, 2 or 3). */
    this.mediaType = 0;
    /** `'new'`, `'connecting'`, `'connected'`, `'failed'`, `'republishing'` or `'closed'`. */
    this.state = 'new';
    this._closed = false;
    this._republishes = 0;   // republishes in a row since the transport last connected
    this._lowerActive = [true, true]; // whether anyone receives the small and medium encodings, as the relay last said
    this._encodingCheck = null;       // timer: look at the top encoding again
  }

  /**
   * Turns the simulcast encodings below the top one (the first, smallest, and with three the
   * second) on or off as the relay reports their use: an anchor whose viewers all take the big
   * video does not spend its uplink and battery on the others. The big encoding always runs: a
   * new viewer must not wait for it.
   */
  async _setLowerEncodingsActive(small, medium) {
    this._lowerActive = [small, medium];
    const sender = this.pc && this.encodings && this.encodings.length > 1 && this.pc.getSenders().find((s) => s.track && s.track.kind === 'video');
    if (!sender || this._closed) return;
    try {
      const parameters = sender.getParameters();
      const encodings = parameters.encodings || [];
      if (encodings.length < 2) return;
      // Lower encodings go off only while the top one runs at its full rate: under a weak uplink
      // (or before the encoder has ramped up) they are all that reaches anyone, so they stay on
      // whatever the relay says.
      if (!(small && medium)) {
        if (!(await this._topEncodingHealthy(encodings[encodings.length - 1]))) [small, medium] = [true, true];
        // Whatever was decided, the top encoding is looked at again while a lower one is unused.
        this._scheduleEncodingCheck();
      }
      const wanted = encodings.map((e, i) => (i === encodings.length - 1 ? e.active : i === 0 ? small : medium));
      if (encodings.every((e, i) => e.active === wanted[i])) return;
      encodings.forEach((e, i) => { e.active = wanted[i]; });
      await sender.setParameters(parameters);
      this.room.client._log(`publication ${this.streamIndex}: encodings ${encodings.map((e) => `${e.rid} ${e.active ? 'on' : 'off'}`).join(', ')} (their use as the relay reports it)`);
    } catch (error) {
      this.room.client._reportError({error: asError(error, 'setParameters'), context: 'simulcastEncodings', roomId: this.room.roomId});
    }
  }

  /**
   * Whether the uplink carries the top encoding, by the browser's own estimate
   * (`availableOutgoingBitrate`) against the encoding's `maxBitrate`. Under a weak uplink the
   * browser starves or suspends the top encoding, and the lower ones are all that reaches
   * anyone. A top encoding held back by the CPU counts as carried: stopping the lower ones is
   * what frees the CPU for it.
   */
  async _topEncodingHealthy(encoding) {
    try {
      let available;
      (await this.pc.getStats()).forEach((s) => {
        if (s.type === 'candidate-pair' && s.nominated && s.availableOutgoingBitrate !== undefined) available = s.availableOutgoingBitrate;
      });
      return available !== undefined && available >= (encoding.maxBitrate || 0);
    } catch {
      return false;
    }
  }

  /** Applies the relay's last word on the lower encodings again in 3 s, against the top encoding's state then. */
  _scheduleEncodingCheck() {
    if (this._encodingCheck || this._closed) return;
    this._encodingCheck = this.room.client._clock.setTimeout(() => {
      this._encodingCheck = null;
      if (!this._closed) this._setLowerEncodingsActive(...this._lowerActive);
    }, 3000);
  }

  async _publish() {
    const client = this.room.client;
    const PC = client._RTCPeerConnection;
    if (!PC) throw new PKRelayError(ErrorCode.MediaFailed, 'RTCPeerConnection is not available here', 'publishStream');
    const transport = await client._request('createTransport', {kind: 'webrtc', roomId: this.room.roomId});
    const pc = new PC(withIceServers(PUBLISH_CONFIG, transport));
    this.transportId = transport.transportId;
    this.pc = pc;
    try {
      for (const track of this.mediaStream.getTracks()) {
        const init = {direction: 'sendonly', streams: [this.mediaStream]};
        // A republish keeps the lower encodings off while nobody receives them.
        if (track.kind === 'video' && this.encodings) {
          const top = this.encodings.length - 1;
          init.sendEncodings = this.encodings.map((e, i) => ({...e, ...(i < top && !this._lowerActive[i === 0 ? 0 : 1] ? {active: false} : {})}));
        }
        pc.addTransceiver(track, init);
      }
      pc.onconnectionstatechange = () => {
        if (this.pc !== pc || this._closed) return;
        const s = pc.connectionState;
        if (s === 'connected' || s === 'connecting' || s === 'failed') this._setState(s);
        if (s === 'connected') this._republishes = 0;
        if (s === 'failed') client._publicationFailed(this, 'the browser lost ICE connectivity to the relay');
        if (s === 'disconnected') this._restartIce(pc);
      };
      // ICE-lite relay: no need to wait for candidates.
      await pc.setLocalDescription(await pc.createOffer());
    } catch (error) {
      this._dropPeer(true);
      throw asError(error, 'publishStream');
    }
    let result;
    try {
      result = await client._request('publishStream', {
        roomId: this.room.roomId, streamIndex: this.streamIndex, transportId: transport.transportId, sdp: pc.localDescription.sdp,
      });
      await pc.setRemoteDescription({type: 'answer', sdp: result.sdp});
    } catch (error) {
      this._dropPeer(true);
      throw asError(error, 'publishStream');
    }
    this.mediaType = result.mediaType;
    if (pc.connectionState !== 'connected') this._setState('connecting');
  }

  /**
   * An ICE restart after the browser's ICE went `disconnected` (a network change): a new offer
   * with new ICE credentials, answered by the relay with its own. The transport, its keys and
   * the published tracks stay. Tried again while the connection stays disconnected; `failed`
   * republishes as before.
   */
  async _restartIce(pc) {
    if (this._restarting || this.pc !== pc || this._closed) return;
    this._restarting = true;
    const client = this.room.client;
    try {
      await pc.setLocalDescription(await pc.createOffer({iceRestart: true}));
      const result = await client._request('restartIce', {transportId: this.transportId, sdp: pc.localDescription.sdp});
      if (this.pc === pc) await pc.setRemoteDescription({type: 'answer', sdp: result.sdp});
      client._log(`publish transport ${this.transportId}: ICE restart`);
    } catch (error) {
      if (this.pc === pc && pc.signalingState === 'have-local-offer') await pc.setLocalDescription({type: 'rollback'}).catch(() => {});
      if (this.pc === pc && !this._closed && error.code !== ErrorCode.NotConnected) client._reportError({error: asError(error, 'restartIce'), context: 'restartIce'});
    } finally {
      this._restarting = false;
    }
    if (this.pc !== pc || this._closed) return;
    client._clock.setTimeout(() => {
      if (this.pc === pc && !this._closed && pc.connectionState === 'disconnected') this._restartIce(pc);
    }, ICE_RESTART_RETRY_MS);
  }

  _setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.room.client._emit('onPublicationStateChanged', {roomId: this.room.roomId, streamIndex: this.streamIndex, state, publication: this});
  }

  _dropPeer(tellRelay) {
    if (this.pc) {
      this.pc.onconnectionstatechange = null;
      try { this.pc.close(); } catch (e) { /* already closed */ }
    }
    if (tellRelay && this.transportId !== null) {
      this.room.client._request('closeTransport', {transportId: this.transportId}).catch(() => {});
    }
    this.pc = null;
    this.transportId = null;
  }

  /** The browser's statistics of this publication (outbound-rtp per encoding, …). */
  async getStats() {
    if (!this.pc) return new Map();
    return this.pc.getStats();
  }

  /** Stops publishing: unpublishes the stream and closes its transport. The tracks keep running. */
  async unpublish() {
    return this.room.unpublish(this);
  }
}

function resolveEncodings(options) {
  if (Array.isArray(options.simulcast)) return options.simulcast.map((e) => ({...e}));
  if (options.simulcast) {
    const encodings = options.simulcast === 3 ? THREE_LAYER_SIMULCAST_ENCODINGS : DEFAULT_SIMULCAST_ENCODINGS;
    return encodings.map((e) => (options.scalabilityMode ? {...e, scalabilityMode: options.scalabilityMode} : {...e}));
  }
  return null;
}

/** Wraps a browser exception (DOMException, TypeError) into a PKRelayError MediaFailed. */
function asError(error, method) {
  if (error instanceof PKRelayError) return error;
  const name = error && error.name ? `${error.name}: ` : '';
  return new PKRelayError(ErrorCode.MediaFailed, `${name}${error && error.message ? error.message : String(error)}`, method);
}

// ---------------------------------------------------------------------------------------------
// Rooms and remote users

/** A visible user of a room (one who joined it, or a PK partner or forwarded user mirrored in). */
export class RemoteUser {
  constructor(room, userId, role, forwardedFrom) {
    /** The room it is seen in. */
    this.room = room;
    /** Its userId. */
    this.userId = userId;
    /** `'anchor'` or `'audience'`. */
    this.role = role;
    /** The room it is forwarded or linked from, for a mirror; else undefined. */
    this.forwardedFrom = forwardedFrom;
    /** Published streams: streamIndex → `{streamIndex, mediaType, subscription}`. */
    this.streams = new Map();
  }

  /** The MediaStream its `main` (or `screen`) tracks arrive in; stable for the client's life. */
  mediaStream(streamIndex = 'main') {
    return this.room.client._remoteStream(this.userId, streamIndex);
  }
}

/**
 * A room this client joined. Methods act in this room; events of this room are emitted here as
 * well as on the client. Remote users, local publications, subscriptions, forwards and PK links
 * are remembered so that a reconnection restores them.
 */
export class Room extends Emitter {
  constructor(client, options) {
    super(ROOM_EVENTS);
    /** The client (connection) this room belongs to. */
    this.client = client;
    /** The room's id. */
    this.roomId = options.roomId;
    /** The local user's id. */
    this.userId = options.userId;
    /** The token the SDK joins (and rejoins) with; replaced by `updateToken`. */
    this.token = options.token;
    /** `'anchor'` or `'audience'`. */
    this.role = options.role || 'anchor';
    /** Whether the local user is visible (as the relay reported). */
    this.visible = options.visible !== undefined ? options.visible : true;
    /** Unix seconds at which the token expires. */
    this.tokenExpiresAt = 0;
    /** Visible users of the room: userId → RemoteUser. */
    this.remoteUsers = new Map();
    /** Local publications: streamIndex → LocalPublication. */
    this.publications = new Map();
    this._options = {
      autoSubscribe: options.autoSubscribe !== false,
      autoSubscribeAudio: options.autoSubscribeAudio !== false,
      autoSubscribeVideo: options.autoSubscribeVideo !== false,
      autoSubscribeVideoStreamType: options.autoSubscribeVideoStreamType || 0,
      autoPublish: options.autoPublish !== false,
    };
    this._subscriptions = new Map();   // key userId|streamIndex → {userId, streamIndex, mediaType, videoStreamType}
    this._layerChoices = new Map();    // key → streamType chosen with setRemoteVideoStreamType
    this._priorities = new Map();      // userId → priority set with setRemoteUserPriority
    this._renderSizes = new Map();     // key userId|streamIndex → {width, height} set with setRemoteVideoConfig
    this._forward = null;              // {targets: [{roomId, token}], paused}
    this._links = new Map();           // peerRoomId|peerUserId → {peerRoomId, peerUserId, caller}
    this._autoLinkPeers = new Set();   // peerRoomId|peerUserId invited with autoLink, not linked yet
    this._audioReport = null;
    this._joined = false;
    this._refusalHeard = false;
  }

  // A room handler's exception goes to the client's onError (and this room's), like any
  // background error of the room.
  _handlerFailed(error, event) {
    this.client._reportError({error, context: `handler of ${event}`, roomId: this.roomId});
  }

  async _join() {
    const roomConfig = {autoPublish: this._options.autoPublish};
    if (this._options.autoSubscribe) {
      roomConfig.subscribeTransportId = await this.client._receiveTransportId(this.roomId);
      roomConfig.autoSubscribeAudio = this._options.autoSubscribeAudio;
      roomConfig.autoSubscribeVideo = this._options.autoSubscribeVideo;
      roomConfig.autoSubscribeVideoStreamType = this._options.autoSubscribeVideoStreamType;
    }
    const params = {token: this.token, roomId: this.roomId, userId: this.userId, role: this.role, visible: this.visible, roomConfig};
    const previous = new Map(this.remoteUsers);
    // The streams as they were: the user objects are reused below and their streams replaced.
    const previousStreams = new Map([...this.remoteUsers].map(([userId, user]) => [userId, new Map(user.streams)]));
    const result = await this.client._request('joinRoom', params);
    // Replaced only now: a failed rejoin keeps the users known before the connection dropped.
    this.remoteUsers.clear();
    this._joined = true;
    this.role = result.role;
    this.visible = result.visible;
    this.tokenExpiresAt = result.tokenExpiresAt;
    for (const u of result.users || []) {
      const user = previous.get(u.userId) || new RemoteUser(this, u.userId, u.role, u.forwardedFrom);
      user.role = u.role;
      user.forwardedFrom = u.forwardedFrom;
      user.streams = new Map((u.streams || []).map((s) => [s.streamIndex, {streamIndex: s.streamIndex, mediaType: s.mediaType}]));
      this.remoteUsers.set(u.userId, user);
    }
    return {result, previous, previousStreams};
  }

  /**
   * Leaves the room: ends its publications and its remembered state. Also during a reconnection:
   * the room is no longer restored, and if the reconnection had rejoined it already, the relay is
   * told.
   */
  async leave() {
    const client = this.client;
    // Out of client.rooms first: a reconnection checks membership before each step it restores.
    if (client.rooms.get(this.roomId) === this) client.rooms.delete(this.roomId);
    const channel = client._channel;
    // Whether the relay has us in the room: a reconnection's rejoin may have made us a member
    // again before the state turned connected, so the channel and _joined decide, not the state.
    const member = this._joined && channel && channel.isOpen;
    try {
      // Left first, transports closed after: the others see the streams end as the user leaving
      // (reason 3) rather than as closed transports (reason 5).
      if (member) await client._request('leaveRoom', {roomId: this.roomId});
    } catch (error) {
      if (error.code !== ErrorCode.NotInRoom && error.code !== ErrorCode.NotConnected) throw error;
    } finally {
      this._closeLocal();
    }
  }

  /**
   * Forgets everything of the room on this side (publications, subscriptions, layer choices,
   * forwards, links, volume reports): nothing of a room that ended may be restored later.
   */
  _closeLocal({tellRelay = true} = {}) {
    const connected = tellRelay && this.client._channel && this.client._channel.isOpen;
    this._joined = false;
    for (const pub of this.publications.values()) {
      pub._closed = true;
      pub._dropPeer(connected);
      pub._setState('closed');
    }
    this.publications.clear();
    this._subscriptions.clear();
    this._layerChoices.clear();
    this._links.clear();
    this._autoLinkPeers.clear();
    this._forward = null;
    this._audioReport = null;
  }

  /**
   * Publishes a MediaStream (camera and microphone, or a screen) on a WebRTC transport of its own.
   * @param {MediaStream} mediaStream at most one audio and one video track
   * @param {object} [options] `{streamIndex: 'main'|'screen', simulcast: boolean|RTCRtpEncodingParameters[], scalabilityMode}`
   * @returns {Promise<LocalPublication>}
   */
  async publish(mediaStream, options = {}) {
    const refused = this.client._refuseWhileReconnecting('publishStream');
    if (refused) throw refused;
    const streamIndex = options.streamIndex || 'main';
    const old = this.publications.get(streamIndex);
    const publication = new LocalPublication(this, mediaStream, {...options, streamIndex});
    await publication._publish();
    // A publish of a stream already published replaces it (the relay says Republish).
    if (old) {
      old._closed = true;
      old._dropPeer(true);
      old._setState('closed');
    }
    this.publications.set(streamIndex, publication);
    return publication;
  }

  /** Stops publishing `publication` (or the stream with that streamIndex) and closes its transport. */
  async unpublish(publication = 'main') {
    const streamIndex = typeof publication === 'string' ? publication : publication.streamIndex;
    const pub = this.publications.get(streamIndex);
    this.publications.delete(streamIndex);
    try {
      await this.client.request('unpublishStream', {roomId: this.roomId, streamIndex});
    } finally {
      if (pub) {
        pub._closed = true;
        pub._dropPeer(true);
        pub._setState('closed');
      }
    }
  }

  /**
   * Subscribes to a user's stream on the client's receive transport. Needed only without
   * auto-subscribe, or to pick kinds or the video layer; the tracks arrive as onRemoteTrackAdded.
   * @param {string} userId the publisher
   * @param {object} [options] `{streamIndex, mediaType, videoStreamType}`
   */
  async subscribe(userId, options = {}) {
    const refused = this.client._refuseWhileReconnecting('subscribeStream');
    if (refused) throw refused;
    const sub = {
      userId, streamIndex: options.streamIndex || 'main', mediaType: options.mediaType || MediaType.AudioAndVideo,
      videoStreamType: options.videoStreamType || 0,
    };
    const result = await this._subscribe(sub);
    this._subscriptions.set(`${userId}|${sub.streamIndex}`, sub);
    return result;
  }

  async _subscribe(sub) {
    const transportId = await this.client._receiveTransportId(this.roomId);
    return this.client._request('subscribeStream', {
      roomId: this.roomId, userId: sub.userId, streamIndex: sub.streamIndex, mediaType: sub.mediaType,
      transportId, videoStreamType: sub.videoStreamType,
    });
  }

  /** Stops receiving kinds (`mediaType`, default both) of a user's stream. */
  async unsubscribe(userId, options = {}) {
    const streamIndex = options.streamIndex || 'main';
    const mediaType = options.mediaType || MediaType.AudioAndVideo;
    const key = `${userId}|${streamIndex}`;
    await this.client.request('unsubscribeStream', {roomId: this.roomId, userId, streamIndex, mediaType});
    const sub = this._subscriptions.get(key);
    if (sub) {
      sub.mediaType &= ~mediaType;
      if (!sub.mediaType) this._subscriptions.delete(key);
    }
  }

  /** Chooses the big (0) or small (1) video of a dual-stream publisher; remembered across reconnection. */
  async setRemoteVideoStreamType(userId, streamType, streamIndex = 'main') {
    const result = await this.client.request('setRemoteVideoStreamType', {roomId: this.roomId, userId, streamIndex, streamType});
    this._layerChoices.set(`${userId}|${streamIndex}`, streamType);
    const sub = this._subscriptions.get(`${userId}|${streamIndex}`);
    if (sub) sub.videoStreamType = streamType;
    return result;
  }

  /**
   * Ranks a publisher's video for this subscriber when its downlink cannot carry everything:
   * `RemoteUserPriority.Low` (0, the default), `.Medium` (100) or `.High` (200). Higher keeps its
   * layer longest. Remembered across reconnection.
   */
  async setRemoteUserPriority(userId, priority) {
    await this.client.request('setRemoteUserPriority', {roomId: this.roomId, userId, priority});
    this._priorities.set(userId, priority);
  }

  /**
   * The size this viewer shows a publisher's video at, in device pixels (Volcengine's
   * `setRemoteVideoConfig`): the relay then sends no simulcast layer larger than the smallest
   * one that fills it. `{width: 0, height: 0}` lifts that. `framerate` is accepted and changes
   * nothing (it applies to SVC streams). Remembered across reconnection.
   */
  async setRemoteVideoConfig(userId, {width, height, framerate, streamIndex = 'main'}) {
    const params = {roomId: this.roomId, userId, streamIndex, width, height};
    if (framerate !== undefined) params.framerate = framerate;
    await this.client.request('setRemoteVideoConfig', params);
    const key = `${userId}|${streamIndex}`;
    if (width === 0 && height === 0) this._renderSizes.delete(key);
    else this._renderSizes.set(key, {width, height});
  }

  /**
   * Keeps the relay told of the size `element` (the `<video>` showing `userId`'s stream) is
   * rendered at, through `setRemoteVideoConfig`, as it is resized: a thumbnail then receives a
   * small layer and a full-screen view the top one. Sizes are CSS pixels times
   * `devicePixelRatio`, sent 250 ms after the last change. Returns a function that stops
   * watching and lifts the ceiling. Needs `ResizeObserver` (every current browser).
   */
  observeRenderedSize(userId, element, {streamIndex = 'main'} = {}) {
    const Observer = this.client._ResizeObserver;
    if (!Observer) throw new PKRelayError(ErrorCode.InvalidParams, 'ResizeObserver is not available: pass the size with setRemoteVideoConfig', 'setRemoteVideoConfig');
    let timer = null;
    let sent = null;
    const send = () => {
      timer = null;
      const ratio = globalThis.devicePixelRatio || 1;
      const width = Math.round(element.clientWidth * ratio);
      const height = Math.round(element.clientHeight * ratio);
      if (sent && sent.width === width && sent.height === height) return;
      sent = {width, height};
      this.setRemoteVideoConfig(userId, {width, height, streamIndex})
        .catch((error) => this.client._reportError({error, context: 'setRemoteVideoConfig', roomId: this.roomId}));
    };
    const observer = new Observer(() => {
      if (timer !== null) this.client._clock.clearTimeout(timer);
      timer = this.client._clock.setTimeout(send, 250);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (timer !== null) this.client._clock.clearTimeout(timer);
      this.setRemoteVideoConfig(userId, {width: 0, height: 0, streamIndex})
        .catch((error) => this.client._reportError({error, context: 'setRemoteVideoConfig', roomId: this.roomId}));
    };
  }

  /** Switches between `'anchor'` and `'audience'`. */
  async switchRole(role) {
    await this.client.request('switchRole', {roomId: this.roomId, role});
    this.role = role;
  }

  /** Turns the local user visible or invisible. */
  async setUserVisibility(visible) {
    await this.client.request('setUserVisibility', {roomId: this.roomId, visible});
    this.visible = visible;
  }

  /** Replaces the room's token (after onTokenWillExpire); the SDK rejoins with it after a reconnection. */
  async updateToken(token) {
    await this.client.request('updateToken', {roomId: this.roomId, token});
    this.token = token;
  }

  /** The relay's traffic figures for this room (getStats). */
  async getStats() {
    return this.client.request('getStats', {roomId: this.roomId});
  }

  /** Forwards the local user's streams into other rooms: `targets` = `[{roomId, token}]`. */
  async startForwardStreamToRooms(targets) {
    const result = await this.client.request('startForwardStreamToRooms', {roomId: this.roomId, targets});
    this._forward = {targets: targets.map((t) => ({...t})), paused: false};
    this._forwardTrim(result.infos);
    return result;
  }

  /** Replaces the forward's target list (also to refresh target tokens). */
  async updateForwardStreamToRooms(targets) {
    const result = await this.client.request('updateForwardStreamToRooms', {roomId: this.roomId, targets});
    if (this._forward) this._forward.targets = targets.map((t) => ({...t}));
    this._forwardTrim(result.infos);
    return result;
  }

  /** Stops every forward target. */
  async stopForwardStreamToRooms() {
    const result = await this.client.request('stopForwardStreamToRooms', {roomId: this.roomId});
    this._forward = null;
    return result;
  }

  /** Hides the forwarded user in every target room. */
  async pauseForwardStreamToAllRooms() {
    const result = await this.client.request('pauseForwardStreamToAllRooms', {roomId: this.roomId});
    if (this._forward) this._forward.paused = true;
    return result;
  }

  /** Shows it again. */
  async resumeForwardStreamToAllRooms() {
    const result = await this.client.request('resumeForwardStreamToAllRooms', {roomId: this.roomId});
    if (this._forward) this._forward.paused = false;
    return result;
  }

  _forwardTrim(infos) {
    // Targets that failed are not running: a reconnection does not start them again.
    if (!this._forward || !infos) return;
    const failed = new Set(infos.filter((i) => i.state !== ForwardState.Success).map((i) => i.roomId));
    this._forward.targets = this._forward.targets.filter((t) => !failed.has(t.roomId));
    if (this._forward.targets.length === 0) this._forward = null;
  }

  /** Opens a two-way PK link with anchor `userId` of room `roomId`. */
  async connectOtherRoom(roomId, userId) {
    const result = await this.client.request('connectOtherRoom', {roomId, userId, localRoomId: this.roomId},
      {timeoutCode: ErrorCode.LinkConnectTimeout});
    // This client made the link, so after a reconnection it is the one that makes it again.
    this._links.set(`${roomId}|${userId}`, {peerRoomId: roomId, peerUserId: userId, caller: true});
    return result;
  }

  /** Ends this room's PK links. */
  async disconnectOtherRoom() {
    return this.client.request('disconnectOtherRoom', {localRoomId: this.roomId},
      {timeoutCode: ErrorCode.LinkDisconnectTimeout});
  }

  /** Hides (true) or shows (false) kinds of the linked peer's streams in this room only. */
  async updateOtherRoomForwardMode(roomId, userId, mode = {}) {
    return this.client.request('updateOtherRoomForwardMode', {roomId, userId, localRoomId: this.roomId, ...mode});
  }

  /** Invites anchor `userId` of room `roomId` to a PK; resolves with `{inviteId}`. */
  async invite(roomId, userId, options = {}) {
    const result = await this.client.request('invite', {roomId, userId, localRoomId: this.roomId, ...options});
    // With autoLink the relay links as if the inviter had called connectOtherRoom (PROTOCOL.md,
    // invite): the link that follows is this client's to restore.
    if (options.autoLink) this._autoLinkPeers.add(`${roomId}|${userId}`);
    return result;
  }

  /** Sends a text message (or `{binary: base64}`) to everyone in the room (and linked rooms with `toLinkedRooms`). */
  async sendRoomMessage(message, options = {}) {
    const body = typeof message === 'string' ? {message} : message;
    return this.client.request('sendRoomMessage', {roomId: this.roomId, ...body, ...options});
  }

  /** Sends a text message (or `{binary: base64}`) to one member of the room. */
  async sendUserMessage(userId, message) {
    const body = typeof message === 'string' ? {message} : message;
    return this.client.request('sendUserMessage', {roomId: this.roomId, userId, ...body});
  }

  /** Turns on volume reports (onRemoteAudioPropertiesReport, onActiveSpeaker); `intervalMs` 0 turns them off. */
  async enableAudioPropertiesReport(options = {}) {
    const params = {roomId: this.roomId, intervalMs: options.intervalMs !== undefined ? options.intervalMs : 300, topN: options.topN || 3};
    await this.client.request('enableAudioPropertiesReport', params);
    this._audioReport = params.intervalMs ? params : null;
  }

  // Bookkeeping from the relay's events, before the app's handlers run.
  _track(event, d) {
    switch (event) {
      case 'onUserJoined': {
        const user = this.remoteUsers.get(d.userId) || new RemoteUser(this, d.userId, d.role, d.forwardedFrom);
        user.role = d.role;
        user.forwardedFrom = d.forwardedFrom;
        this.remoteUsers.set(d.userId, user);
        break;
      }
      case 'onUserLeave':
        this.remoteUsers.delete(d.userId);
        break;
      case 'onUserPublishStream': {
        const user = this.remoteUsers.get(d.userId);
        if (user) user.streams.set(d.streamIndex, {...(user.streams.get(d.streamIndex) || {}), streamIndex: d.streamIndex, mediaType: d.mediaType});
        break;
      }
      case 'onUserUnpublishStream': {
        const user = this.remoteUsers.get(d.userId);
        if (user) user.streams.delete(d.streamIndex);
        break;
      }
      case 'onStreamSubscribed': {
        const user = this.remoteUsers.get(d.userId);
        const stream = user && user.streams.get(d.streamIndex || 'main');
        if (stream && d.state === 0) stream.subscription = d;
        break;
      }
      case 'onSwitchRole':
        this.role = d.role;
        break;
      case 'onUserVisibilityChanged':
        this.visible = d.visible;
        break;
      case 'onConnectOtherRoom': {
        const key = `${d.peerRoomId}|${d.peerUserId}`;
        const old = this._links.get(key);
        const caller = Boolean(old && old.caller) || this._autoLinkPeers.has(key);
        this._autoLinkPeers.delete(key);
        if (d.errorCode === 0) this._links.set(key, {peerRoomId: d.peerRoomId, peerUserId: d.peerUserId, caller});
        break;
      }
      case 'onDisconnectOtherRoom':
        this._links.delete(`${d.peerRoomId}|${d.peerUserId}`);
        break;
      case 'onForwardStreamStateChanged':
        this._forwardTrim(d.infos);
        break;
      default:
        break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The client

/**
 * One user's connection to a relay. Create it, `joinRoom` with a token, `publish` in the room,
 * and watch what arrives (`onRemoteTrackAdded`). Reconnects by itself (`onConnectionStateChanged`,
 * `onReconnected`) and refreshes tokens through `tokenProvider`.
 */
export class PKRelayClient extends Emitter {
  /**
   * @param {object} options
   * @param {string} options.url the relay's control WebSocket, e.g. `wss://relay.example.com/rtc`
   * @param {(info: {roomId: string, userId: string, privilege?: string}) => (string|Promise<string>)} [options.tokenProvider]
   *        called on onTokenWillExpire (and when a rejoin finds the token expired); its token goes to updateToken
   * @param {number} [options.requestTimeoutMs=10000] how long a request waits for its answer
   * @param {false|{maxAttempts?: number, initialDelayMs?: number, maxDelayMs?: number}} [options.reconnect]
   * @param {number} [options.maxRedirects=2] cluster redirects (4030) a join, or one reconnection attempt, follows
   * @param {(line: string) => void} [options.log] a logger for requests, events and decisions
   */
  constructor(options) {
    super();
    if (!options || typeof options.url !== 'string') throw new TypeError('PKRelayClient needs options.url (the relay\'s /rtc WebSocket)');
    /** The control URL in use (after a cluster redirect, the node's). */
    this.url = options.url;
    this._entryUrl = options.url;
    /** The connection's user id, fixed by the first join. */
    this.userId = null;
    /** Joined rooms: roomId → Room. */
    this.rooms = new Map();
    // Rooms whose join the relay refused, with the code: its onRoomStateChanged copy is dropped.
    this._refusedJoins = new Map();
    /** `'disconnected'`, `'connecting'`, `'connected'` or `'reconnecting'`. */
    this.connectionState = ConnectionState.Disconnected;
    this._tokenProvider = options.tokenProvider || null;
    this._timeoutMs = options.requestTimeoutMs || 10000;
    this._maxRedirects = options.maxRedirects !== undefined ? options.maxRedirects : 2;
    const r = options.reconnect === false ? {maxAttempts: 0} : (options.reconnect || {});
    this._reconnect = {
      maxAttempts: r.maxAttempts !== undefined ? r.maxAttempts : 10,
      initialDelayMs: r.initialDelayMs !== undefined ? r.initialDelayMs : 500,
      maxDelayMs: r.maxDelayMs !== undefined ? r.maxDelayMs : 10000,
    };
    this._clock = options.clock || defaultClock;
    this._random = options.random || Math.random;
    this._WebSocket = options.WebSocket || globalThis.WebSocket;
    this._RTCPeerConnection = options.RTCPeerConnection || globalThis.RTCPeerConnection;
    this._MediaStream = options.MediaStream || globalThis.MediaStream;
    this._ResizeObserver = options.ResizeObserver || globalThis.ResizeObserver;
    this._logSink = options.log || null;
    this._channel = null;
    this._connecting = null;
    this._receive = null;
    this._receiveOpening = null;
    this._remoteStreams = new Map();
    this._reconnecting = false;
    this._relayShuttingDown = false;
    this._closedByApp = false;
    this._generation = 0;
    this._fallbackOption = null;
  }

  _log(...parts) {
    if (this._logSink) this._logSink(parts.map((p) => (typeof p === 'string' ? p : summarize(p))).join(' '));
  }

  _emit(event, data) {
    if (data && typeof data.roomId === 'string' && event !== 'onTransportOffer') {
      const room = this.rooms.get(data.roomId);
      if (room) room._emit(event, data);
    }
    super._emit(event, data);
  }

  _handlerFailed(error, event, data) {
    const roomId = data && typeof data.roomId === 'string' ? data.roomId : undefined;
    this._reportError({error, context: `handler of ${event}`, ...(roomId !== undefined ? {roomId} : {})});
  }

  /**
   * Emits onError (on the client, and on the room it names); with nobody listening the error
   * goes to console.error rather than vanishing.
   */
  _reportError(payload) {
    const room = typeof payload.roomId === 'string' ? this.rooms.get(payload.roomId) : undefined;
    if (this._listenerCount('onError') + (room ? room._listenerCount('onError') : 0) === 0) {
      console.error(`PKRelay: ${payload.context}${payload.roomId ? ` (room ${payload.roomId})` : ''}:`, payload.error);
      return;
    }
    this._emit('onError', payload);
  }

  _setState(state, reason, extra = {}) {
    const previous = this.connectionState;
    if (previous === state && !extra.attempt) return;
    this.connectionState = state;
    this._log(`connection: ${previous} -> ${state} (${reason})`);
    super._emit('onConnectionStateChanged', {state, previous, reason, ...extra});
  }

  /** Opens the control channel (joinRoom does it by itself). */
  async connect() {
    if (this._reconnecting) {
      throw new PKRelayError(ErrorCode.NotConnected, 'the client is reconnecting; try again after onReconnected', 'connect');
    }
    if (this._channel && this._channel.isOpen) return;
    if (this._connecting) return this._connecting;
    this._closedByApp = false;
    this._setState(ConnectionState.Connecting, 'connect');
    this._connecting = this._open(this.url).then(() => {
      this._setState(ConnectionState.Connected, 'connected');
    }, (error) => {
      this._setState(ConnectionState.Disconnected, 'connectFailed');
      throw error;
    }).finally(() => {
      this._connecting = null;
    });
    return this._connecting;
  }

  async _open(url) {
    const channel = new ControlChannel({
      url, WebSocket: this._WebSocket, clock: this._clock, requestTimeoutMs: this._timeoutMs,
      onEvent: (event, data) => this._onRelayEvent(channel, event, data),
      onClose: ({reason}) => this._channelDropped(channel, reason),
      onLateAnswer: (method, params, result) => this._lateAnswer(channel, method, params, result),
      log: (...p) => this._log(...p),
    });
    if (!this._WebSocket) throw new PKRelayError(ErrorCode.ConnectFailed, 'no WebSocket implementation here', 'connect');
    this._channel = channel;
    await channel.open();
    this.url = url;
    // A fallback option the app set holds for every connection, reconnections included.
    if (this._fallbackOption !== null) await channel.request('setSubscribeFallbackOption', {option: this._fallbackOption});
  }

  /**
   * What the relay may do to this client's subscriptions when its downlink cannot carry them:
   * `SubscribeFallbackOption.Disabled` (0), `.VideoStreamLow` (1, the relay's default) or
   * `.AudioOnly` (2). Holds for every room, now and after reconnections; may be called before
   * connecting.
   */
  async setSubscribeFallbackOption(option) {
    if (![0, 1, 2].includes(option)) throw new PKRelayError(ErrorCode.InvalidParams, 'option must be 0, 1 or 2', 'setSubscribeFallbackOption');
    this._fallbackOption = option;
    if (this._channel && this._channel.isOpen) await this._request('setSubscribeFallbackOption', {option});
  }

  /**
   * A request that timed out succeeded after all: its caller already failed, so what it did is
   * undone, best effort, lest the relay keep a member or a transport the app does not know.
   */
  _lateAnswer(channel, method, params, result) {
    if (channel !== this._channel) return;
    if (method === 'joinRoom') {
      const room = this.rooms.get(params.roomId);
      if (room && room._joined) return;
      this._log(`joinRoom of ${params.roomId} succeeded after its timeout: leaving again`);
      this._request('leaveRoom', {roomId: params.roomId}).catch(() => {});
    } else if (method === 'createTransport' && result.transportId !== undefined) {
      this._log(`createTransport succeeded after its timeout: closing transport ${result.transportId}`);
      this._request('closeTransport', {transportId: result.transportId}).catch(() => {});
    }
  }

  /**
   * Sends any protocol method and resolves with its result (the escape hatch for methods the
   * object model does not wrap). Rejects with a PKRelayError.
   */
  request(method, params = {}, options = {}) {
    const refused = this._refuseWhileReconnecting(method);
    if (refused) return Promise.reject(refused);
    return this._request(method, params, options);
  }

  // While the SDK restores the session the channel is open, but the app's calls would race the
  // restore (a publish made then would be published twice): they fail with NotConnected, as
  // documented, until onReconnected.
  _refuseWhileReconnecting(method) {
    if (!this._reconnecting) return null;
    return new PKRelayError(ErrorCode.NotConnected, 'the client is reconnecting; try again after onReconnected', method);
  }

  // The SDK's own requests (restoring, answering offers, closing transports) go through here.
  _request(method, params = {}, options = {}) {
    if (!this._channel) return Promise.reject(new PKRelayError(ErrorCode.NotConnected, 'not connected to the relay', method));
    return this._channel.request(method, params, {timeoutMs: this._timeoutMs, ...options});
  }

  /**
   * Joins a room and resolves with the Room. Follows a cluster redirect (4030) when this
   * connection is in no other room.
   * @param {object} options `{roomId, userId, token, role, visible, autoSubscribe, autoSubscribeAudio, autoSubscribeVideo, autoSubscribeVideoStreamType, autoPublish}`
   */
  async joinRoom(options) {
    for (let redirects = 0; ; redirects++) {
      await this.connect();
      const room = new Room(this, options);
      if (this.rooms.has(room.roomId)) throw new PKRelayError(ErrorCode.AlreadyInRoom, `already in room '${room.roomId}'`, 'joinRoom');
      // Registered before the request: the relay's replay of the room follows the response at once.
      this.rooms.set(room.roomId, room);
      try {
        await room._join();
        this.userId = room.userId;
        return room;
      } catch (error) {
        this.rooms.delete(room.roomId);
        const next = error.code === ErrorCode.RoomOnAnotherNode && error.data && error.data.controlURL;
        if (next && this.rooms.size === 0 && redirects < this._maxRedirects) {
          this._log(`room ${room.roomId} lives on node ${error.data.nodeId}: moving to ${next}`);
          this._moveTo(next);
          continue;
        }
        if (ANSWERED_BY_RELAY.has(error) && !room._refusalHeard) this._joinRefused(room, error);
        throw error;
      }
    }
  }

  // The relay answers a refused join first and sends onRoomStateChanged after it (answers come
  // before the events a request causes), so an app that disconnects in its catch would never
  // see the event. The SDK emits it before the join rejects, and drops the relay's copy when it
  // follows; refusals the relay answers without the event get it too.
  _joinRefused(room, error) {
    this._refusedJoins.set(room.roomId, error.code);
    this._emit('onRoomStateChanged', {roomId: room.roomId, userId: room.userId, state: error.code, joinType: 0});
  }

  _moveTo(url) {
    if (this._channel) this._channel.close();
    this._channel = null;
    this._closeReceive(false);
    this.url = url;
    this._setState(ConnectionState.Connecting, 'redirect');
  }

  /** Accepts an invitation (`onInvitationReceived.inviteId`). */
  acceptInvitation(inviteId, options = {}) {
    return this.request('acceptInvitation', {inviteId, ...options});
  }

  /** Refuses an invitation; `reason` `'busy'` or `'active'` (default). */
  rejectInvitation(inviteId, options = {}) {
    return this.request('rejectInvitation', {inviteId, ...options});
  }

  /** Withdraws an invitation this client sent. */
  cancelInvitation(inviteId, options = {}) {
    return this.request('cancelInvitation', {inviteId, ...options});
  }

  /** The relay's traffic figures for this connection (all rooms). */
  getStats() {
    return this.request('getStats', {});
  }

  /**
   * The browser's inbound video statistics per remote stream on the receive transport:
   * `[{userId, streamIndex, active, framesDecoded, frameWidth, frameHeight, packetsReceived, packetsLost, …}]`.
   */
  async getRemoteVideoStats() {
    return this._receive && !this._receive.closed ? this._receive.videoStats() : [];
  }

  /** The relay's id of the receive transport (as in onTransportStateChanged), or null. */
  get receiveTransportId() {
    return this._receive ? this._receive.id : null;
  }

  /** The RTCPeerConnection of the receive transport (for its statistics and SDP), or null. */
  get receivePeerConnection() {
    return this._receive ? this._receive.pc : null;
  }

  /** The MediaStream a remote user's `main` (or `screen`) tracks arrive in; the same object for the client's life. */
  remoteMediaStream(userId, streamIndex = 'main') {
    return this._remoteStream(userId, streamIndex);
  }

  _remoteStream(userId, streamIndex) {
    const key = streamKey(userId, streamIndex);
    let stream = this._remoteStreams.get(key);
    if (!stream) {
      stream = new this._MediaStream();
      this._remoteStreams.set(key, stream);
    }
    return stream;
  }

  /**
   * Leaves every room and closes the connection; no reconnection follows. When connected, each
   * joined room is left with leaveRoom first (all at once, each bounded by the request timeout),
   * so the others see the user leave (reason 0) rather than drop (reason 1).
   */
  async disconnect() {
    this._closedByApp = true;
    // A reconnection in progress notices the new generation and stops.
    this._generation++;
    const wasReconnecting = this._reconnecting;
    this._reconnecting = false;
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    const channel = this._channel;
    if (channel && channel.isOpen && !wasReconnecting) {
      await Promise.allSettled(rooms.filter((room) => room._joined)
        .map((room) => channel.request('leaveRoom', {roomId: room.roomId})));
    }
    // The transports close with the connection.
    for (const room of rooms) room._closeLocal({tellRelay: false});
    this._closeReceive(false);
    if (channel) channel.close();
    if (this._channel === channel) this._channel = null;
    this._setState(ConnectionState.Disconnected, 'client');
  }

  // The connection's one receiving transport, opened for the room that first needs it: the
  // relay places it on that room's media thread (its port is that thread's).
  async _receiveTransportId(roomId) {
    if (this._receive && !this._receive.closed && this._receive.id !== null) return this._receive.id;
    if (!this._receiveOpening) {
      const transport = new ReceiveTransport(this);
      this._receiveOpening = transport.open(roomId).then((id) => {
        this._receive = transport;
        return id;
      }).finally(() => {
        this._receiveOpening = null;
      });
    }
    return this._receiveOpening;
  }

  _closeReceive(tellRelay) {
    if (this._receive) this._receive.close(tellRelay);
    this._receive = null;
  }

  // ---- events from the relay ----

  _onRelayEvent(channel, event, data) {
    if (channel !== this._channel) return;
    if (event === 'onRoomStateChanged' && this._refusedJoins.has(data.roomId)) {
      const refused = this._refusedJoins.get(data.roomId);
      this._refusedJoins.delete(data.roomId);
      // The copy of the event the SDK already emitted when the join rejected.
      if (refused === data.state && !this.rooms.has(data.roomId)) return;
    }
    if (!PERIODIC_EVENTS.has(event)) this._log('<-', event, data);
    switch (event) {
      case 'onTransportOffer':
        if (this._receive && data.transportId === this._receive.id) this._receive.offer(data);
        break;
      case 'onTransportStateChanged':
        this._transportStateChanged(data);
        break;
      case 'onTokenWillExpire':
        this._refreshToken(data);
        break;
      default:
        break;
    }
    const room = typeof data.roomId === 'string' ? this.rooms.get(data.roomId) : undefined;
    if (room && event === 'onSubscribedLayersChanged') {
      const publication = room.publications.get(data.streamIndex);
      if (publication) publication._setLowerEncodingsActive(data.smallSubscribed, data.mediumSubscribed !== false);
    }
    // The relay's event for a join being refused came before the SDK handled the refusal.
    if (room && event === 'onRoomStateChanged' && !room._joined && data.state !== 0) room._refusalHeard = true;
    if (room) room._track(event, data);
    if (event === 'onExitRoom' && room && data.reason === ExitRoomReason.ServerShutdown) {
      // The relay drains and closes the connection next: the room is kept and rejoined by the
      // reconnection, through the URL the app gave (another relay, or the room's new node).
      this._relayShuttingDown = true;
      room._joined = false;
    } else if (event === 'onExitRoom' && room) {
      // The relay took us out (kick, dismissal, duplicate login, token expiry): final for this
      // room, never rejoined by the SDK.
      room._closeLocal();
      this.rooms.delete(room.roomId);
      room._emit(event, data);
      super._emit(event, data);
      return;
    }
    this._emit(event, data);
  }

  _transportStateChanged(d) {
    if (d.state !== 'failed' && d.state !== 'closed') return;
    if (this._receive && d.transportId === this._receive.id) {
      this._transportFailed(this._receive, d.reason || `receive transport ${d.state}`);
      return;
    }
    for (const room of this.rooms.values()) {
      for (const pub of room.publications.values()) {
        if (pub.transportId === d.transportId) this._publicationFailed(pub, d.reason || `publish transport ${d.state}`);
      }
    }
  }

  /**
   * A publish transport failed (ICE or DTLS): publish the same tracks again on a new transport,
   * which the room sees as unpublish and publish. The first republish is immediate; failures in a
   * row (the new transport failing too, or the publish refused) back off as reconnection does,
   * and after REPUBLISH_ATTEMPTS of them the publication stops in state `failed` with an onError
   * (context `republish`). Reaching `connected` resets the count.
   */
  async _publicationFailed(pub, reason) {
    if (pub._closed || pub.state === 'republishing' || this._reconnecting) return;
    const generation = this._generation;
    pub._setState('republishing');
    pub._dropPeer(true);
    let lastError = new PKRelayError(ErrorCode.MediaFailed, reason, 'publishStream');
    while (pub._republishes < REPUBLISH_ATTEMPTS) {
      pub._republishes++;
      this._log(`publication ${pub.room.roomId}/${pub.streamIndex} failed (${reason}): publishing again (${pub._republishes}/${REPUBLISH_ATTEMPTS})`);
      if (pub._republishes > 1) await this._sleep(this._backoff(pub._republishes - 1));
      // A reconnection, disconnect() or unpublish meanwhile takes over.
      if (pub._closed || this._reconnecting || this._closedByApp || generation !== this._generation) return;
      try {
        await pub._publish();
        return;
      } catch (error) {
        lastError = asError(error, 'publishStream');
        if (error.code === ErrorCode.NotConnected) return;
      }
    }
    pub._setState('failed');
    this._reportError({
      error: new PKRelayError(lastError.code, `gave up publishing ${pub.streamIndex} again after ${REPUBLISH_ATTEMPTS} attempts: ${lastError.message}`, 'publishStream'),
      context: 'republish', roomId: pub.room.roomId,
    });
  }

  /**
   * The receive transport failed. A relay transport cannot restart ICE, and auto-subscribe of a
   * room is tied to the transport it joined with, so the session is restored as after a
   * dropped connection.
   */
  _transportFailed(transport, reason) {
    if (transport !== this._receive || this._reconnecting || this._closedByApp) return;
    this._log(`receive transport failed (${reason}): reconnecting`);
    const channel = this._channel;
    this._reconnectLoop(`transportFailed: ${reason}`);
    if (channel) channel.close();
  }

  /** Calls the app's tokenProvider; what it throws is reported as TokenProviderFailed with it as `cause`. */
  async _askTokenProvider(info) {
    try {
      return await this._tokenProvider(info);
    } catch (error) {
      throw new PKRelayError(ErrorCode.TokenProviderFailed,
        `the tokenProvider failed for room ${info.roomId}: ${error && error.message ? error.message : String(error)}`, 'tokenProvider', undefined, error);
    }
  }

  async _refreshToken(d) {
    if (!this._tokenProvider) return;
    const room = this.rooms.get(d.roomId);
    if (!room) return;
    try {
      const token = await this._askTokenProvider({roomId: d.roomId, userId: room.userId, privilege: d.privilege});
      // The SDK's own request: also during a reconnection's restore.
      await this._request('updateToken', {roomId: d.roomId, token});
      room.token = token;
      this._log(`token of room ${d.roomId} refreshed`);
    } catch (error) {
      this._reportError({error: asError(error, 'updateToken'), context: 'tokenRefresh', roomId: d.roomId});
    }
  }

  // ---- reconnection ----

  _channelDropped(channel, reason) {
    if (channel !== this._channel || this._closedByApp || this._reconnecting) return;
    this._log(`control channel dropped: ${reason}`);
    this._reconnectLoop(this._relayShuttingDown ? 'serverShutdown' : 'connectionLost');
  }

  /** The delay before reconnection attempt `attempt` (1-based): exponential, capped, ±20 % jitter. */
  _backoff(attempt) {
    const {initialDelayMs, maxDelayMs} = this._reconnect;
    const base = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
    return Math.round(base * (0.8 + 0.4 * this._random()));
  }

  _sleep(ms) {
    return new Promise((resolve) => this._clock.setTimeout(resolve, ms));
  }

  async _reconnectLoop(reason) {
    if (this._reconnecting) return;
    this._reconnecting = true;
    const generation = this._generation;
    const stopped = () => this._closedByApp || generation !== this._generation;
    const started = this._clock.now();
    this._channel = null;
    // Everything of the old connection is gone at the relay: its transports closed with it.
    this._closeReceive(false);
    for (const room of this.rooms.values()) {
      room._joined = false;
      for (const pub of room.publications.values()) {
        pub._dropPeer(false);
        pub._setState('republishing');
      }
    }
    if (this._reconnect.maxAttempts === 0) {
      this._giveUp(reason, new PKRelayError(ErrorCode.NotConnected, reason));
      return;
    }
    let lastError = null;
    // A relay that shut down will not come back soon: start from the URL the app gave.
    let url = this._relayShuttingDown ? this._entryUrl : this.url;
    this._relayShuttingDown = false;
    let attempt = 0;
    while (attempt < this._reconnect.maxAttempts) {
      attempt++;
      const delayMs = this._backoff(attempt);
      this._setState(ConnectionState.Reconnecting, reason, {attempt, delayMs});
      await this._sleep(delayMs);
      if (stopped()) return;
      // Redirects are counted per attempt: while a dead node's lease runs (CLUSTER.md) the entry
      // keeps redirecting to it, and those stale redirects must not use up the budget the
      // correct redirect needs once the room has moved.
      for (let redirects = 0; ; redirects++) {
        try {
          await this._open(url);
          const report = await this._restore();
          if (stopped()) return;
          this._reconnecting = false;
          this._setState(ConnectionState.Connected, 'reconnected');
          this._emit('onReconnected', {attempts: attempt, durationMs: this._clock.now() - started, ...report});
          return;
        } catch (error) {
          if (stopped()) return;
          lastError = error;
          this._log(`reconnection attempt ${attempt} failed: ${error.message}`);
          if (this._channel) this._channel.close();
          this._channel = null;
          this._closeReceive(false);
          for (const room of this.rooms.values()) {
            for (const pub of room.publications.values()) pub._dropPeer(false);
          }
          if (error.code === ErrorCode.RoomOnAnotherNode && error.data && error.data.controlURL && redirects < this._maxRedirects) {
            // In a cluster the room moved to another node (its node went away): join it there,
            // within this attempt.
            url = error.data.controlURL;
            continue;
          }
          // A node that cannot be reached may be gone for good: the entry URL finds where the
          // room lives now (redirecting with 4030).
          if (error.code === ErrorCode.ConnectFailed) url = this._entryUrl;
          break;
        }
      }
    }
    this._giveUp(reason, lastError);
  }

  _giveUp(reason, lastError) {
    this._reconnecting = false;
    const rooms = [...this.rooms.keys()];
    for (const room of this.rooms.values()) room._closeLocal();
    this.rooms.clear();
    const error = new PKRelayError(ErrorCode.ReconnectFailed,
      `could not reconnect to the relay: ${lastError ? lastError.message : reason}`, 'reconnect');
    this._setState(ConnectionState.Disconnected, 'reconnectFailed', {error, rooms});
  }

  /**
   * Rejoins every room with its current token, publishes the local streams again, subscribes
   * again, and restores layer choices, volume reports, forwards and PK links. What could not be
   * restored is listed in the report (`failures`); a room whose rejoin is refused for good
   * (invalid or expired token without a provider) is left.
   */
  async _restore() {
    const report = {rooms: [], failures: []};
    const note = (kind, roomId, error, extra = {}) => {
      if (error.code === ErrorCode.NotConnected || error.code === ErrorCode.RequestTimeout) throw error;
      // A step of a room the app left meanwhile failed because it left: nothing to report.
      if (this.rooms.get(roomId) === undefined) return;
      report.failures.push({kind, roomId, code: error.code, message: error.message, ...extra});
    };
    for (const room of [...this.rooms.values()]) {
      // The app may leave a room while it is being restored: each step checks that the room is
      // still one of the client's, so a left room is neither rejoined nor relinked.
      const left = () => this.rooms.get(room.roomId) !== room;
      if (left()) continue;
      let joined;
      try {
        joined = await this._rejoin(room);
      } catch (error) {
        if (left()) continue;
        if (!FATAL_JOIN_CODES.has(error.code)) throw error;
        note('room', room.roomId, error);
        room._closeLocal();
        this.rooms.delete(room.roomId);
        // The app hears it as it hears any end of a room, marked as the SDK's. Reason and code
        // pair as in PROTOCOL.md section 5 (an expired token: 3 with -1009); a refusal the
        // protocol has no exit reason for is the SDK's own pair, RejoinFailed with
        // ReconnectFailed. The relay's refusal itself is in `error`.
        const expired = error.code === ErrorCode.TokenExpired;
        this._emit('onExitRoom', {
          roomId: room.roomId, reason: expired ? ExitRoomReason.TokenExpired : ExitRoomReason.RejoinFailed,
          code: expired ? ErrorCode.TokenExpired : ErrorCode.ReconnectFailed,
          message: `rejoining after a reconnection was refused: ${error.message}`, rejoinFailed: true, error,
        });
        continue;
      }
      if (left()) {
        // Left while the rejoin was on its way: the relay has us in the room again, so leave it.
        room._joined = false;
        await this._request('leaveRoom', {roomId: room.roomId}).catch(() => {});
        continue;
      }
      report.rooms.push(room.roomId);
      // Users that left while the connection was down, and streams that ended meanwhile of users
      // still there. Why they ended is unknown here, so the unpublish reason is Other (5); a
      // user still publishing is replayed by the relay (onUserPublishStream).
      for (const [userId, streams] of joined.previousStreams) {
        const user = room.remoteUsers.get(userId);
        if (!user) {
          this._emit('onUserLeave', {roomId: room.roomId, userId, reason: LeaveReason.Dropped});
          continue;
        }
        for (const [streamIndex, stream] of streams) {
          if (user.streams.has(streamIndex)) continue;
          this._emit('onUserUnpublishStream', {
            roomId: room.roomId, userId, streamIndex, mediaType: stream.mediaType, reason: UnpublishReason.Other,
          });
        }
      }
      for (const pub of [...room.publications.values()]) {
        if (left()) break;
        try {
          await pub._publish();
        } catch (error) {
          note('publication', room.roomId, error, {streamIndex: pub.streamIndex});
          if (!pub._closed) pub._setState('failed');
        }
      }
      for (const sub of [...room._subscriptions.values()]) {
        if (left()) break;
        try {
          await room._subscribe(sub);
        } catch (error) {
          note('subscription', room.roomId, error, {userId: sub.userId, streamIndex: sub.streamIndex});
        }
      }
      for (const [key, streamType] of [...room._layerChoices]) {
        const [userId, streamIndex] = key.split('|');
        if (left()) break;
        if (!room.remoteUsers.has(userId)) continue;
        try {
          await this._request('setRemoteVideoStreamType', {roomId: room.roomId, userId, streamIndex, streamType});
        } catch (error) {
          note('videoStreamType', room.roomId, error, {userId, streamIndex});
        }
      }
      for (const [userId, priority] of [...room._priorities]) {
        if (left()) break;
        try {
          await this._request('setRemoteUserPriority', {roomId: room.roomId, userId, priority});
        } catch (error) {
          note('remoteUserPriority', room.roomId, error, {userId});
        }
      }
      for (const [key, {width, height}] of [...room._renderSizes]) {
        const [userId, streamIndex] = key.split('|');
        if (left()) break;
        try {
          await this._request('setRemoteVideoConfig', {roomId: room.roomId, userId, streamIndex, width, height});
        } catch (error) {
          note('remoteVideoConfig', room.roomId, error, {userId, streamIndex});
        }
      }
      if (room._audioReport && !left()) {
        try {
          await this._request('enableAudioPropertiesReport', room._audioReport);
        } catch (error) {
          note('audioPropertiesReport', room.roomId, error);
        }
      }
      if (room._forward && !left()) {
        const forward = room._forward;
        try {
          await this._request('startForwardStreamToRooms', {roomId: room.roomId, targets: forward.targets});
          if (forward.paused) await this._request('pauseForwardStreamToAllRooms', {roomId: room.roomId});
        } catch (error) {
          note('forward', room.roomId, error);
        }
      }
      for (const link of [...room._links.values()]) {
        if (left()) break;
        // Only the anchor that made a link makes it again; the other waits for the relay's
        // onConnectOtherRoom. Were both to call, the second would be refused as already linked.
        if (!link.caller) continue;
        try {
          await this._request('connectOtherRoom', {roomId: link.peerRoomId, userId: link.peerUserId, localRoomId: room.roomId});
        } catch (error) {
          // -3328 here means the two are linked already (the peer called first): the link is up.
          if (error.code === ErrorCode.LinkInvalidParameter || left()) continue;
          note('link', room.roomId, error, {peerRoomId: link.peerRoomId, peerUserId: link.peerUserId});
          // The relay ended the link when the connection dropped; tell the app it stays down.
          // errorCode is always 0 in this event (PROTOCOL.md section 4); the refusal is in `error`.
          room._links.delete(`${link.peerRoomId}|${link.peerUserId}`);
          this._emit('onDisconnectOtherRoom', {
            roomId: room.roomId, peerRoomId: link.peerRoomId, peerUserId: link.peerUserId, reason: 'reconnectFailed', errorCode: 0, error,
          });
        }
      }
    }
    // Rooms the app left during the restore are not reported as restored.
    report.rooms = report.rooms.filter((roomId) => this.rooms.has(roomId));
    return report;
  }

  async _rejoin(room) {
    try {
      return await room._join();
    } catch (error) {
      if (error.code === ErrorCode.TokenExpired && this._tokenProvider) {
        room.token = await this._askTokenProvider({roomId: room.roomId, userId: room.userId});
        return room._join();
      }
      throw error;
    }
  }
}

// Reports the relay sends every few seconds; logging them would bury everything else.
const PERIODIC_EVENTS = new Set(['onNetworkQuality', 'onRemoteAudioPropertiesReport', 'onActiveSpeaker']);

/** A one-line view of a request or event for logs; SDP and tokens are only counted. */
function summarize(data) {
  return JSON.stringify(data, (key, value) => {
    if (key === 'sdp' && typeof value === 'string') return `<sdp ${value.length} chars>`;
    if (key === 'token' && typeof value === 'string') return '<token>';
    return value;
  });
}

/**
 * Creates a client: `createClient({url})` is `new PKRelayClient({url})`.
 * @returns {PKRelayClient}
 */
export function createClient(options) {
  return new PKRelayClient(options);
}
