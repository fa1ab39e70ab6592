// The client's logic without a browser: typed events, room bookkeeping, cluster redirects,
// token refresh, and reconnection with backoff on a scripted clock. Media needs a browser and
// is covered by the browser test; these rooms join without auto-subscribe and publish nothing.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {PKRelayClient, ErrorCode, RELAY_EVENTS, SDK_EVENTS, LeaveReason} from '../../Sources/PKRelayServer/SDK/pkrelay.js';
import {ManualClock, fakeWebSocket, settle} from './fakes.mjs';

/** A scripted relay: joins succeed; `handlers[method]` overrides any method. */
function scriptedRelay(handlers = {}) {
  return (socket, request) => {
    const handler = handlers[request.method];
    if (handler) return handler(socket, request);
    if (request.method === 'joinRoom') {
      const p = request.params;
      return {result: {roomId: p.roomId, userId: p.userId, role: p.role, visible: p.visible, users: [], tokenExpiresAt: 2000000000}};
    }
    return {result: {}};
  };
}

function makeClient(relay, options = {}) {
  const clock = new ManualClock();
  const {FakeSocket, sockets} = fakeWebSocket({relay, opens: options.opens});
  const client = new PKRelayClient({
    url: 'ws://relay-1.test/rtc', WebSocket: FakeSocket, clock, random: () => 0.5, requestTimeoutMs: 1000, ...options,
  });
  const seen = [];
  for (const name of [...RELAY_EVENTS, ...SDK_EVENTS]) client.on(name, (data) => seen.push([name, data]));
  return {client, clock, sockets, seen};
}

const JOIN = {roomId: 'room-a', userId: 'anchor-a', token: 'token-1', autoSubscribe: false};

test('on() refuses an event name the SDK never emits, so a typo fails at once', () => {
  const {client} = makeClient(scriptedRelay());
  assert.throws(() => client.on('onUserJoind', () => {}), TypeError);
  assert.throws(() => client.on('user-joined', () => {}), TypeError);
  assert.throws(() => client.on('onUserJoined', 'not a function'), TypeError);
  const off = client.on('onUserJoined', () => {});
  assert.equal(typeof off, 'function');
});

test('a join keeps the room\'s users and streams in step with the relay\'s events', async () => {
  const relay = scriptedRelay({
    joinRoom: (socket, {params}) => {
      socket.event('onUserJoined', {roomId: 'room-a', userId: 'anchor-b', role: 'anchor', forwardedFrom: 'room-b'});
      socket.event('onUserPublishStream', {roomId: 'room-a', userId: 'anchor-b', streamIndex: 'main', mediaType: 3});
      return {result: {roomId: params.roomId, userId: params.userId, role: 'anchor', visible: true, tokenExpiresAt: 99,
        users: [{userId: 'anchor-b', role: 'anchor', forwardedFrom: 'room-b', streams: [{streamIndex: 'main', mediaType: 3}]}]}};
    },
  });
  const {client, sockets} = makeClient(relay);
  const room = await client.joinRoom(JOIN);
  const roomEvents = [];
  room.on('onUserLeave', (d) => roomEvents.push(d));
  await settle();
  assert.equal(client.userId, 'anchor-a');
  assert.equal(room.tokenExpiresAt, 99);
  const b = room.remoteUsers.get('anchor-b');
  assert.equal(b.forwardedFrom, 'room-b');
  assert.equal(b.streams.get('main').mediaType, 3);
  assert.deepEqual(sockets[0].sent[0].params.roomConfig, {autoPublish: true}, 'no subscribe transport without auto-subscribe');

  sockets[0].receive({event: 'onUserUnpublishStream', data: {roomId: 'room-a', userId: 'anchor-b', streamIndex: 'main', mediaType: 3, reason: 0}});
  assert.equal(b.streams.size, 0);
  sockets[0].receive({event: 'onUserLeave', data: {roomId: 'other-room', userId: 'x', reason: 0}});
  sockets[0].receive({event: 'onUserLeave', data: {roomId: 'room-a', userId: 'anchor-b', reason: 0}});
  assert.equal(room.remoteUsers.size, 0);
  assert.deepEqual(roomEvents.map((d) => d.roomId), ['room-a'], 'a room hears only its own events');
});

test('a join on the wrong cluster node follows the 4030 redirect to the node named', async () => {
  const relay = (socket, request) => {
    if (request.method === 'joinRoom' && socket.url === 'ws://relay-1.test/rtc') {
      return {error: {code: 4030, message: 'room lives on relay-2', data: {controlURL: 'ws://relay-2.test/rtc', nodeId: 'relay-2'}}};
    }
    return scriptedRelay()(socket, request);
  };
  const {client, sockets, seen} = makeClient(relay);
  const room = await client.joinRoom(JOIN);
  assert.equal(room.roomId, 'room-a');
  assert.deepEqual(sockets.map((s) => s.url), ['ws://relay-1.test/rtc', 'ws://relay-2.test/rtc']);
  assert.ok(sockets[0].closed, 'the first node\'s connection is closed');
  assert.equal(client.url, 'ws://relay-2.test/rtc');
  assert.ok(seen.some(([n, d]) => n === 'onConnectionStateChanged' && d.reason === 'redirect'));
});

test('redirects stop after maxRedirects and the 4030 reaches the app', async () => {
  const relay = (socket, request) => (request.method === 'joinRoom'
    ? {error: {code: 4030, message: 'elsewhere', data: {controlURL: socket.url + 'x', nodeId: 'n'}}}
    : {result: {}});
  const {client, sockets} = makeClient(relay, {maxRedirects: 1});
  await assert.rejects(client.joinRoom(JOIN), (e) => e.code === ErrorCode.RoomOnAnotherNode && e.method === 'joinRoom');
  assert.equal(sockets.length, 2);
});

test('onTokenWillExpire asks the app for a token and sends it with updateToken', async () => {
  const asked = [];
  const {client, sockets} = makeClient(scriptedRelay(), {
    tokenProvider: async (info) => { asked.push(info); return 'token-2'; },
  });
  const room = await client.joinRoom(JOIN);
  sockets[0].receive({event: 'onTokenWillExpire', data: {roomId: 'room-a', expiresAt: 100, remainingSeconds: 30}});
  await settle();
  assert.deepEqual(asked, [{roomId: 'room-a', userId: 'anchor-a', privilege: undefined}]);
  const update = sockets[0].sent.find((r) => r.method === 'updateToken');
  assert.deepEqual(update.params, {roomId: 'room-a', token: 'token-2'});
  assert.equal(room.token, 'token-2');
});

test('a failed token refresh is reported as onError with the relay\'s code', async () => {
  const {client, sockets, seen} = makeClient(scriptedRelay({
    updateToken: () => ({error: {code: -1000, message: 'token signature does not match'}}),
  }), {tokenProvider: async () => 'bad'});
  await client.joinRoom(JOIN);
  sockets[0].receive({event: 'onTokenWillExpire', data: {roomId: 'room-a', expiresAt: 100, remainingSeconds: 30}});
  await settle();
  const errors = seen.filter(([n]) => n === 'onError').map(([, d]) => d);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].context, 'tokenRefresh');
  assert.equal(errors[0].error.code, -1000);
});

test('after a dropped connection the client reconnects with backoff, rejoins with the current token and restores links', async () => {
  const {client, clock, sockets, seen} = makeClient(scriptedRelay({
    connectOtherRoom: (socket, {params}) => {
      socket.event('onConnectOtherRoom', {roomId: 'room-a', peerRoomId: params.roomId, peerUserId: params.userId, errorCode: 0, message: 'linked'});
      return {result: {roomId: 'room-a', peerRoomId: params.roomId, peerUserId: params.userId, errorCode: 0, message: 'linked'}};
    },
  }));
  const room = await client.joinRoom(JOIN);
  await room.connectOtherRoom('room-b', 'anchor-b');
  await room.updateToken('token-2');
  await settle();
  seen.length = 0;

  sockets[0].drop();
  await settle();
  assert.equal(client.connectionState, 'reconnecting');
  const first = seen.find(([n]) => n === 'onConnectionStateChanged')[1];
  assert.equal(first.reason, 'connectionLost');
  assert.equal(first.attempt, 1);
  assert.equal(first.delayMs, 500, 'first delay: initialDelayMs with the jitter at its middle');
  assert.equal(sockets.length, 1, 'no new connection before the delay');

  await clock.advance(500);
  await settle();
  assert.equal(sockets.length, 2);
  assert.deepEqual(sockets[1].methods(), ['joinRoom', 'connectOtherRoom']);
  assert.equal(sockets[1].sent[0].params.token, 'token-2', 'rejoined with the token updateToken gave');
  assert.equal(client.connectionState, 'connected');
  const reconnected = seen.find(([n]) => n === 'onReconnected')[1];
  assert.equal(reconnected.attempts, 1);
  assert.deepEqual(reconnected.rooms, ['room-a']);
  assert.deepEqual(reconnected.failures, []);
  const states = seen.filter(([n]) => n === 'onConnectionStateChanged').map(([, d]) => `${d.state}:${d.reason}`);
  assert.deepEqual(states, ['reconnecting:connectionLost', 'connected:reconnected']);
});

test('reconnection attempts back off exponentially up to maxDelayMs, then give up with ReconnectFailed', async () => {
  let up = true;
  const {client, clock, sockets, seen} = makeClient(scriptedRelay(), {
    opens: () => up, reconnect: {maxAttempts: 4, initialDelayMs: 100, maxDelayMs: 300},
  });
  await client.joinRoom(JOIN);
  up = false;
  sockets[0].drop();
  await clock.advance(10000);
  const attempts = seen.filter(([n, d]) => n === 'onConnectionStateChanged' && d.state === 'reconnecting').map(([, d]) => d.delayMs);
  assert.deepEqual(attempts, [100, 200, 300, 300]);
  assert.equal(sockets.length, 5, 'one connection per attempt');
  assert.equal(client.connectionState, 'disconnected');
  const last = seen.filter(([n]) => n === 'onConnectionStateChanged').pop()[1];
  assert.equal(last.reason, 'reconnectFailed');
  assert.equal(last.error.code, ErrorCode.ReconnectFailed);
  assert.deepEqual(last.rooms, ['room-a']);
  assert.equal(client.rooms.size, 0);
});

test('users that left while the connection was down are reported as leaving', async () => {
  let joins = 0;
  const {client, clock, sockets, seen} = makeClient(scriptedRelay({
    joinRoom: (socket, {params}) => {
      joins++;
      const users = joins === 1 ? [{userId: 'viewer-x', role: 'audience', streams: []}] : [];
      return {result: {roomId: params.roomId, userId: params.userId, role: 'anchor', visible: true, users, tokenExpiresAt: 1}};
    },
  }));
  const room = await client.joinRoom(JOIN);
  assert.ok(room.remoteUsers.has('viewer-x'));
  sockets[0].drop();
  await clock.advance(1000);
  const leaves = seen.filter(([n]) => n === 'onUserLeave').map(([, d]) => d);
  assert.deepEqual(leaves, [{roomId: 'room-a', userId: 'viewer-x', reason: LeaveReason.Dropped}]);
});

test('an expired token at rejoin is replaced through tokenProvider', async () => {
  let joins = 0;
  const {client, clock, sockets} = makeClient(scriptedRelay({
    joinRoom: (socket, {params}) => {
      joins++;
      if (params.token === 'token-1' && joins > 1) return {error: {code: -1009, message: 'token expired at 1'}};
      return {result: {roomId: params.roomId, userId: params.userId, role: 'anchor', visible: true, users: [], tokenExpiresAt: 1}};
    },
  }), {tokenProvider: async () => 'token-fresh'});
  const room = await client.joinRoom(JOIN);
  sockets[0].drop();
  await clock.advance(1000);
  assert.equal(client.connectionState, 'connected');
  assert.deepEqual(sockets[1].sent.filter((r) => r.method === 'joinRoom').map((r) => r.params.token), ['token-1', 'token-fresh']);
  assert.equal(room.token, 'token-fresh');
});

test('a duplicate login ends the room for good: onExitRoom, no rejoin', async () => {
  const {client, clock, sockets, seen} = makeClient(scriptedRelay());
  await client.joinRoom(JOIN);
  sockets[0].receive({event: 'onExitRoom', data: {roomId: 'room-a', reason: 1, code: -1004, message: 'duplicate login'}});
  assert.equal(client.rooms.size, 0);
  assert.ok(seen.some(([n, d]) => n === 'onExitRoom' && d.code === -1004));
  sockets[0].drop();
  await clock.advance(1000);
  assert.equal(sockets[1].methods().includes('joinRoom'), false, 'the room is not rejoined');
});

test('disconnect() closes without reconnecting', async () => {
  const {client, clock, sockets} = makeClient(scriptedRelay());
  await client.joinRoom(JOIN);
  await client.disconnect();
  await clock.advance(5000);
  assert.equal(sockets.length, 1);
  assert.equal(client.connectionState, 'disconnected');
});

test('an exception in an app handler is reported as onError and does not stop other handlers', async () => {
  const {client, sockets, seen} = makeClient(scriptedRelay());
  await client.joinRoom(JOIN);
  let after = 0;
  client.on('onUserJoined', () => { throw new Error('app bug'); });
  client.on('onUserJoined', () => { after++; });
  sockets[0].receive({event: 'onUserJoined', data: {roomId: 'room-a', userId: 'u', role: 'anchor'}});
  assert.equal(after, 1);
  const error = seen.find(([n]) => n === 'onError')[1];
  assert.equal(error.context, 'handler of onUserJoined');
});

test('disconnect() during a reconnection stops it for good, also once the app connects again', async () => {
  let up = false;
  const {client, clock, sockets} = makeClient(scriptedRelay(), {opens: (url) => up || sockets.length === 1});
  await client.joinRoom(JOIN);
  sockets[0].drop();
  await clock.advance(500);
  assert.equal(sockets.length, 2, 'one failed attempt');
  await assert.rejects(client.joinRoom({...JOIN, roomId: 'room-b'}), (e) => e.code === ErrorCode.NotConnected);
  await client.disconnect();
  up = true;
  const room = await client.joinRoom({...JOIN, roomId: 'room-c'});
  await clock.advance(20000);
  assert.equal(client.connectionState, 'connected');
  assert.deepEqual([...client.rooms.keys()], ['room-c']);
  assert.deepEqual(sockets.slice(2).map((s) => s.methods()), [['joinRoom']], 'no rejoin of room-a by the stopped loop');
  assert.equal(room.roomId, 'room-c');
});

test('a reconnection restarts running forwards (paused ones paused again) and volume reports, and reports a link it cannot restore', async () => {
  let connection = 0;
  const {client, clock, sockets, seen} = makeClient((socket, request) => {
    const p = request.params;
    if (request.method === 'joinRoom') connection++;
    if (request.method === 'startForwardStreamToRooms') {
      return {result: {roomId: p.roomId, infos: p.targets.map((t) => ({roomId: t.roomId, state: t.roomId === 'room-bad' ? 2 : 1, error: t.roomId === 'room-bad' ? 1202 : 0}))}};
    }
    if (request.method === 'connectOtherRoom') {
      if (connection > 1) return {error: {code: -102048, message: 'anchor-b is not a visible anchor of room-b'}};
      socket.event('onConnectOtherRoom', {roomId: 'room-a', peerRoomId: 'room-b', peerUserId: 'anchor-b', errorCode: 0, message: 'linked'});
      return {result: {roomId: 'room-a', peerRoomId: 'room-b', peerUserId: 'anchor-b', errorCode: 0, message: 'linked'}};
    }
    return scriptedRelay()(socket, request);
  });
  const room = await client.joinRoom(JOIN);
  await room.startForwardStreamToRooms([{roomId: 'room-c', token: 'tc'}, {roomId: 'room-bad', token: 'tb'}]);
  await room.pauseForwardStreamToAllRooms();
  await room.enableAudioPropertiesReport({intervalMs: 500, topN: 2});
  await room.connectOtherRoom('room-b', 'anchor-b');
  await settle();
  const disconnects = [];
  room.on('onDisconnectOtherRoom', (d) => disconnects.push(d));
  sockets[0].drop();
  await clock.advance(1000);
  const second = sockets[1];
  assert.deepEqual(second.methods(), ['joinRoom', 'enableAudioPropertiesReport', 'startForwardStreamToRooms', 'pauseForwardStreamToAllRooms', 'connectOtherRoom']);
  assert.deepEqual(second.sent[1].params, {roomId: 'room-a', intervalMs: 500, topN: 2});
  assert.deepEqual(second.sent[2].params.targets, [{roomId: 'room-c', token: 'tc'}], 'only the target that was running');
  const report = seen.find(([n]) => n === 'onReconnected')[1];
  assert.deepEqual(report.failures.map((f) => [f.kind, f.code, f.peerUserId]), [['link', -102048, 'anchor-b']]);
  assert.deepEqual(disconnects.map((d) => [d.peerUserId, d.reason, d.errorCode, d.error.code]), [['anchor-b', 'reconnectFailed', 0, -102048]],
    'errorCode 0 as PROTOCOL.md says; the refusal in error');
});

test('a forward stopped by the app is not restarted by a reconnection', async () => {
  const {client, clock, sockets} = makeClient(scriptedRelay({
    startForwardStreamToRooms: (socket, {params}) => ({result: {roomId: params.roomId, infos: [{roomId: 'room-c', state: 1, error: 0}]}}),
  }));
  const room = await client.joinRoom(JOIN);
  await room.startForwardStreamToRooms([{roomId: 'room-c', token: 'tc'}]);
  await room.stopForwardStreamToRooms();
  sockets[0].drop();
  await clock.advance(1000);
  assert.deepEqual(sockets[1].methods(), ['joinRoom']);
});

// A relay whose PK links succeed (the response, then onConnectOtherRoom to self).
const linking = (socket, {params}) => {
  socket.event('onConnectOtherRoom', {roomId: params.localRoomId, peerRoomId: params.roomId, peerUserId: params.userId, errorCode: 0, message: 'linked'});
  return {result: {roomId: params.localRoomId, peerRoomId: params.roomId, peerUserId: params.userId, errorCode: 0, message: 'linked'}};
};

test('leave() during a reconnection: a room left before its rejoin is neither rejoined nor relinked', async () => {
  const {client, clock, sockets} = makeClient(scriptedRelay({connectOtherRoom: linking}));
  const room = await client.joinRoom(JOIN);
  await room.connectOtherRoom('room-b', 'anchor-b');
  await settle();
  sockets[0].drop();
  await settle();
  assert.equal(client.connectionState, 'reconnecting');
  await room.leave();
  assert.equal(room._links.size, 0, 'a left room forgets its links');
  await clock.advance(1000);
  assert.equal(client.connectionState, 'connected');
  assert.deepEqual(sockets[1].methods(), [], 'nothing of the left room is restored');
});

test('leave() while the rejoin is on its way: the relay is told, and the room\'s links are not restored', async () => {
  let held = null;
  let joins = 0;
  const {client, clock, sockets} = makeClient(scriptedRelay({
    connectOtherRoom: linking,
    joinRoom: (socket, request) => {
      if (++joins === 2) { held = {socket, request}; return undefined; }
      return scriptedRelay()(socket, request);
    },
  }));
  const room = await client.joinRoom(JOIN);
  await room.connectOtherRoom('room-b', 'anchor-b');
  await settle();
  sockets[0].drop();
  await clock.advance(500);
  assert.ok(held, 'the rejoin was sent and is waiting for its answer');
  const leaving = room.leave();
  const p = held.request.params;
  held.socket.receive({id: held.request.id, result: {roomId: p.roomId, userId: p.userId, role: 'anchor', visible: true, users: [], tokenExpiresAt: 1}});
  await leaving;
  await clock.advance(100);
  assert.deepEqual(sockets[1].methods(), ['joinRoom', 'leaveRoom'], 'left at the relay too, and no connectOtherRoom');
  assert.equal(client.rooms.size, 0);
  assert.equal(client.connectionState, 'connected');
});

test('stale 4030 redirects to a dead node do not use up the redirect budget of later attempts', async () => {
  // The room lived on node-1, which died. Until its lease ends the entry still redirects there
  // (stale); from the fourth connection to the entry on, it redirects to node-2.
  let entryJoins = 0;
  const relay = (socket, request) => {
    if (request.method === 'joinRoom' && socket.url === 'ws://entry.test/rtc') {
      const to = ++entryJoins <= 3 ? 'node-1' : 'node-2';
      return {error: {code: 4030, message: `room lives on ${to}`, data: {controlURL: `ws://${to}.test/rtc`, nodeId: to}}};
    }
    return scriptedRelay()(socket, request);
  };
  let node1Up = true;
  const {client, clock, sockets} = makeClient(relay, {
    url: 'ws://entry.test/rtc', maxRedirects: 1, opens: (url) => url !== 'ws://node-1.test/rtc' || node1Up,
    reconnect: {maxAttempts: 6, initialDelayMs: 100, maxDelayMs: 100},
  });
  await client.joinRoom(JOIN);
  assert.equal(client.url, 'ws://node-1.test/rtc');
  node1Up = false;
  sockets.at(-1).drop();
  await clock.advance(5000);
  assert.equal(client.connectionState, 'connected', 'the redirect to node-2 was followed');
  assert.equal(client.url, 'ws://node-2.test/rtc');
  assert.deepEqual(sockets.at(-1).methods(), ['joinRoom']);
});

test('after a reconnection only the anchor that made a link makes it again; the callee waits for the relay', async () => {
  const {client, clock, sockets, seen} = makeClient(scriptedRelay());
  const room = await client.joinRoom(JOIN);
  // anchor-b linked with us: we are the callee.
  sockets[0].receive({event: 'onConnectOtherRoom', data: {roomId: 'room-a', peerRoomId: 'room-b', peerUserId: 'anchor-b', errorCode: 0, message: 'linked'}});
  sockets[0].drop();
  await clock.advance(1000);
  assert.equal(client.connectionState, 'connected');
  assert.deepEqual(sockets[1].methods(), ['joinRoom'], 'the callee does not call connectOtherRoom');
  assert.equal(seen.some(([n]) => n === 'onDisconnectOtherRoom'), false);
  assert.ok(room._links.has('room-b|anchor-b'), 'the link is still expected back');
});

test('a restored link refused as already linked (-3328) is up, not reported dead', async () => {
  let connection = 0;
  const {client, clock, sockets, seen} = makeClient(scriptedRelay({
    joinRoom: (socket, request) => { connection++; return scriptedRelay()(socket, request); },
    connectOtherRoom: (socket, request) => (connection > 1
      ? {error: {code: -3328, message: 'anchor-a and anchor-b are already linked'}}
      : linking(socket, request)),
  }));
  const room = await client.joinRoom(JOIN);
  await room.connectOtherRoom('room-b', 'anchor-b');
  await settle();
  sockets[0].drop();
  await clock.advance(1000);
  assert.deepEqual(sockets[1].methods(), ['joinRoom', 'connectOtherRoom']);
  assert.equal(seen.some(([n]) => n === 'onDisconnectOtherRoom'), false);
  assert.deepEqual(seen.find(([n]) => n === 'onReconnected')[1].failures, []);
  assert.ok(room._links.has('room-b|anchor-b'));
});

test('the inviter of an autoLink invitation is the one that restores the link', async () => {
  const {client, clock, sockets} = makeClient(scriptedRelay({
    invite: () => ({result: {inviteId: 'inv-1'}}), connectOtherRoom: linking,
  }));
  const room = await client.joinRoom(JOIN);
  await room.invite('room-b', 'anchor-b', {autoLink: true});
  sockets[0].receive({event: 'onConnectOtherRoom', data: {roomId: 'room-a', peerRoomId: 'room-b', peerUserId: 'anchor-b', errorCode: 0, message: 'linked'}});
  sockets[0].drop();
  await clock.advance(1000);
  assert.deepEqual(sockets[1].methods(), ['joinRoom', 'connectOtherRoom']);
});

/** Runs fn with console.error captured; returns what was logged. */
async function capturingConsoleError(fn) {
  const logged = [];
  const original = console.error;
  console.error = (...args) => logged.push(args);
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return logged;
}

test('an exception in a room handler reaches the client\'s onError', async () => {
  const {client, sockets} = makeClient(scriptedRelay());
  const room = await client.joinRoom(JOIN);
  const errors = [];
  client.on('onError', (d) => errors.push(d));
  room.on('onUserJoined', () => { throw new Error('room handler bug'); });
  sockets[0].receive({event: 'onUserJoined', data: {roomId: 'room-a', userId: 'u', role: 'anchor'}});
  assert.equal(errors.length, 1);
  assert.equal(errors[0].error.message, 'room handler bug');
  assert.equal(errors[0].context, 'handler of onUserJoined');
  assert.equal(errors[0].roomId, 'room-a');
});

test('with no onError listener a handler\'s exception goes to console.error; a throwing onError handler does not loop', async () => {
  const {FakeSocket, sockets} = fakeWebSocket({relay: scriptedRelay()});
  const client = new PKRelayClient({url: 'ws://relay-1.test/rtc', WebSocket: FakeSocket, clock: new ManualClock(), requestTimeoutMs: 1000});
  const room = await client.joinRoom(JOIN);
  room.on('onUserJoined', () => { throw new Error('unheard bug'); });
  let logged = await capturingConsoleError(() => {
    sockets[0].receive({event: 'onUserJoined', data: {roomId: 'room-a', userId: 'u', role: 'anchor'}});
  });
  assert.equal(logged.length, 1);
  assert.ok(logged[0].some((a) => a instanceof Error && a.message === 'unheard bug'));
  let calls = 0;
  client.on('onError', () => { calls++; throw new Error('onError bug'); });
  logged = await capturingConsoleError(() => {
    sockets[0].receive({event: 'onUserJoined', data: {roomId: 'room-a', userId: 'v', role: 'anchor'}});
  });
  assert.equal(calls, 1, 'the onError handler ran once');
  assert.equal(logged.length, 1, 'its own exception is logged, not re-reported');
  assert.equal(logged[0].find((a) => a instanceof Error).message, 'onError bug');
});

test('streams that ended while the connection was down are reported as unpublished, their users staying', async () => {
  let joins = 0;
  const {client, clock, sockets, seen} = makeClient(scriptedRelay({
    joinRoom: (socket, {params}) => {
      joins++;
      const streams = joins === 1 ? [{streamIndex: 'main', mediaType: 3}, {streamIndex: 'screen', mediaType: 2}] : [{streamIndex: 'main', mediaType: 3}];
      return {result: {roomId: params.roomId, userId: params.userId, role: 'anchor', visible: true, tokenExpiresAt: 1,
        users: [{userId: 'anchor-b', role: 'anchor', streams}]}};
    },
  }));
  const room = await client.joinRoom(JOIN);
  sockets[0].drop();
  await clock.advance(1000);
  const unpublished = seen.filter(([n]) => n === 'onUserUnpublishStream').map(([, d]) => d);
  assert.deepEqual(unpublished, [{roomId: 'room-a', userId: 'anchor-b', streamIndex: 'screen', mediaType: 2, reason: 5}]);
  assert.equal(seen.some(([n]) => n === 'onUserLeave'), false);
  assert.deepEqual([...room.remoteUsers.get('anchor-b').streams.keys()], ['main']);
});

test('a joinRoom answered after its timeout is undone with leaveRoom; a late createTransport is closed', async () => {
  const held = [];
  const {client, clock, sockets} = makeClient(scriptedRelay({
    joinRoom: (socket, request) => { held.push({socket, request}); return undefined; },
    createTransport: (socket, request) => { held.push({socket, request}); return undefined; },
  }));
  const joining = client.joinRoom(JOIN);
  const joinFailed = assert.rejects(joining, (e) => e.code === ErrorCode.RequestTimeout);
  await settle();
  await clock.advance(1000);
  await joinFailed;
  const creating = client.request('createTransport', {kind: 'webrtc'});
  const createFailed = assert.rejects(creating, (e) => e.code === ErrorCode.RequestTimeout);
  await settle();
  await clock.advance(1000);
  await createFailed;
  const [join, create] = held;
  join.socket.receive({id: join.request.id, result: {roomId: 'room-a', userId: 'anchor-a', role: 'anchor', visible: true, users: [], tokenExpiresAt: 1}});
  create.socket.receive({id: create.request.id, result: {transportId: 7, kind: 'webrtc'}});
  await settle();
  const sent = sockets[0].sent.map((r) => [r.method, r.params]);
  assert.deepEqual(sent.slice(2), [['leaveRoom', {roomId: 'room-a'}], ['closeTransport', {transportId: 7}]]);
  assert.equal(client.rooms.size, 0);
});

test('disconnect() leaves every joined room first, waiting at most the request timeout', async () => {
  let answered = 0;
  const {client, clock, sockets} = makeClient(scriptedRelay({
    // room-a's leave is answered, room-b's never.
    leaveRoom: (socket, {params}) => (params.roomId === 'room-a' ? (answered++, {result: {}}) : undefined),
  }));
  await client.joinRoom(JOIN);
  await client.joinRoom({...JOIN, roomId: 'room-b'});
  let done = false;
  const disconnecting = client.disconnect().then(() => { done = true; });
  await settle();
  assert.deepEqual(sockets[0].sent.filter((r) => r.method === 'leaveRoom').map((r) => r.params.roomId), ['room-a', 'room-b']);
  assert.equal(answered, 1);
  assert.equal(done, false, 'waits for room-b\'s answer');
  assert.equal(sockets[0].closed, false);
  await clock.advance(1000);
  await disconnecting;
  assert.ok(sockets[0].closed, 'closed after the leaves');
  assert.equal(client.connectionState, 'disconnected');
  assert.equal(client.rooms.size, 0);
});

test('a tokenProvider that throws is reported as TokenProviderFailed with what it threw as cause', async () => {
  const thrown = new Error('the room server is down');
  const {client, sockets, seen} = makeClient(scriptedRelay(), {tokenProvider: async () => { throw thrown; }});
  await client.joinRoom(JOIN);
  sockets[0].receive({event: 'onTokenWillExpire', data: {roomId: 'room-a', expiresAt: 100, remainingSeconds: 30}});
  await settle();
  const errors = seen.filter(([n]) => n === 'onError').map(([, d]) => d);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].context, 'tokenRefresh');
  assert.equal(errors[0].error.code, ErrorCode.TokenProviderFailed);
  assert.equal(errors[0].error.cause, thrown);
  assert.equal(sockets[0].methods().includes('updateToken'), false);
});

test('a refused rejoin is reported with PROTOCOL.md\'s reason and code pair, or the SDK\'s own RejoinFailed pair', async () => {
  for (const [refusal, reason, code] of [[-1009, 3, -1009], [-1000, 100, 4904], [4009, 100, 4904]]) {
    let joins = 0;
    const {client, clock, sockets, seen} = makeClient(scriptedRelay({
      joinRoom: (socket, request) => (++joins > 1 ? {error: {code: refusal, message: 'refused'}} : scriptedRelay()(socket, request)),
    }));
    await client.joinRoom(JOIN);
    sockets[0].drop();
    await clock.advance(1000);
    const exit = seen.find(([n]) => n === 'onExitRoom')[1];
    assert.deepEqual([exit.reason, exit.code, exit.rejoinFailed, exit.error.code], [reason, code, true, refusal], `refusal ${refusal}`);
    assert.notEqual(exit.reason, 1, 'never Kicked, which PROTOCOL.md pairs only with -1004 and -1006');
    assert.equal(client.rooms.size, 0);
  }
});

test('a refused join emits onRoomStateChanged before it rejects, once, so an app that disconnects in its catch still hears it', async () => {
  const relay = scriptedRelay({
    joinRoom: (socket, {params}) => {
      // As the relay does: the answer first, then the event.
      socket.event('onRoomStateChanged', {roomId: params.roomId, userId: params.userId, state: -1000, joinType: 0});
      return {error: {code: -1000, message: 'the token is not valid'}};
    },
  });
  const {client, seen} = makeClient(relay);
  const order = [];
  client.on('onRoomStateChanged', (d) => order.push(['event', d.state]));
  await client.joinRoom(JOIN).catch((e) => {
    order.push(['rejected', e.code]);
    client.disconnect();
  });
  await settle();
  assert.deepEqual(order, [['event', -1000], ['rejected', -1000]]);
  assert.equal(seen.filter(([n]) => n === 'onRoomStateChanged').length, 1);
});

test('a refused join that stays connected hears the event once, and a later join of the room hears its own', async () => {
  let refuse = true;
  const relay = scriptedRelay({
    joinRoom: (socket, {params}) => {
      if (!refuse) return {result: {roomId: params.roomId, userId: params.userId, role: 'anchor', visible: true, users: [], tokenExpiresAt: 9}};
      socket.event('onRoomStateChanged', {roomId: params.roomId, userId: params.userId, state: 4032, joinType: 0});
      return {error: {code: 4032, message: 'the room is full'}};
    },
  });
  const {client, seen} = makeClient(relay);
  await assert.rejects(client.joinRoom(JOIN), (e) => e.code === 4032);
  await settle();
  assert.deepEqual(seen.filter(([n]) => n === 'onRoomStateChanged').map(([, d]) => d.state), [4032]);
  refuse = false;
  await client.joinRoom(JOIN);
  assert.equal(seen.filter(([n]) => n === 'onRoomStateChanged').length, 1, 'a successful join sends no failure event');
});

test('a refused join whose event the relay sends in a later message still gets one event, before the rejection', async () => {
  // As in a browser, where each WebSocket message is a task of its own: the rejection has run
  // before the relay's event is read.
  const relay = scriptedRelay({joinRoom: () => ({error: {code: -1000, message: 'the token is not valid'}})});
  const {client, sockets, seen} = makeClient(relay);
  const order = [];
  client.on('onRoomStateChanged', (d) => order.push(['event', d.state]));
  await client.joinRoom(JOIN).catch((e) => order.push(['rejected', e.code]));
  sockets[0].receive({event: 'onRoomStateChanged', data: {roomId: JOIN.roomId, userId: JOIN.userId, state: -1000, joinType: 0}});
  await settle();
  assert.deepEqual(order, [['event', -1000], ['rejected', -1000]]);
  assert.equal(seen.filter(([n]) => n === 'onRoomStateChanged').length, 1, 'the relay\'s copy is dropped');
});

test('switchRole to anchor on an edge rejects with MoveToRoomNode naming the room\'s node; leaving and joining there as anchor, as SDK.md shows', async () => {
  const EDGE_URL = 'ws://relay-1.test/rtc';
  const ROOM_NODE_URL = 'ws://relay-2.test/rtc';
  const relay = scriptedRelay({
    switchRole: (socket, {params}) => {
      if (socket.url === ROOM_NODE_URL) return {result: {}};
      socket.event('onSwitchRole', {roomId: params.roomId, role: 'audience', errorCode: 4032});
      return {error: {code: 4032, message: 'anchors are served by the room\'s node', data: {controlURL: ROOM_NODE_URL, nodeId: 'node-2'}}};
    },
  });
  const {client, sockets} = makeClient(relay, {url: EDGE_URL});
  const viewerJoin = {...JOIN, userId: 'viewer-1', role: 'audience', visible: false};
  const audienceRoom = await client.joinRoom(viewerJoin);
  let moved;
  await assert.rejects(audienceRoom.switchRole('anchor'), (e) => {
    moved = e;
    return e.code === ErrorCode.MoveToRoomNode && e.method === 'switchRole';
  });
  assert.deepEqual(moved.data, {controlURL: ROOM_NODE_URL, nodeId: 'node-2'});
  assert.equal(audienceRoom.role, 'audience', 'the role stays until a switch succeeds');
  // The recipe: leave here, join on the room's node as anchor.
  await audienceRoom.leave();
  const anchor = makeClient(relay, {url: moved.data.controlURL});
  const room = await anchor.client.joinRoom({...viewerJoin, role: 'anchor', visible: true});
  assert.equal(room.role, 'anchor');
  assert.equal(anchor.sockets[0].url, ROOM_NODE_URL);
  assert.deepEqual(sockets[0].methods(), ['joinRoom', 'switchRole', 'leaveRoom']);
  assert.equal(anchor.sockets[0].sent.find((r) => r.method === 'joinRoom').params.role, 'anchor');
});
