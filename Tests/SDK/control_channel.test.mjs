// Request bookkeeping of the SDK's control channel: ids, answers out of order, relay errors,
// timeouts on a scripted clock, answers with id null, and a dropped socket.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ControlChannel, PKRelayError, ErrorCode} from '../../Sources/PKRelayServer/SDK/pkrelay.js';
import {ManualClock, fakeWebSocket, settle} from './fakes.mjs';

async function openChannel(relay, extra = {}) {
  const clock = new ManualClock();
  const {FakeSocket, sockets} = fakeWebSocket({relay});
  const events = [];
  const closes = [];
  const channel = new ControlChannel({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, clock, requestTimeoutMs: 1000,
    onEvent: (name, data) => events.push([name, data]), onClose: (info) => closes.push(info), ...extra,
  });
  await channel.open();
  return {channel, clock, sockets, events, closes};
}

test('answers are matched to their requests by id, also out of order', async () => {
  const held = [];
  const {channel, sockets} = await openChannel((socket, request) => {
    held.push(request);
    return undefined;
  });
  const first = channel.request('getStats', {});
  const second = channel.request('leaveRoom', {roomId: 'r1'});
  await settle();
  assert.deepEqual(held.map((r) => r.method), ['getStats', 'leaveRoom']);
  assert.notEqual(held[0].id, held[1].id);
  sockets[0].receive({id: held[1].id, result: {left: true}});
  sockets[0].receive({id: held[0].id, result: {generatedAt: 5}});
  assert.deepEqual(await second, {left: true});
  assert.deepEqual(await first, {generatedAt: 5});
  assert.equal(channel.pendingCount, 0);
});

test('a relay error becomes a PKRelayError with code, message, method and data', async () => {
  const {channel} = await openChannel(() => ({
    error: {code: 4030, message: 'room lives on node relay-2', data: {controlURL: 'ws://relay-2/rtc', nodeId: 'relay-2'}},
  }));
  await assert.rejects(channel.request('joinRoom', {roomId: 'r'}), (error) => {
    assert.ok(error instanceof PKRelayError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'PKRelayError');
    assert.equal(error.code, 4030);
    assert.equal(error.method, 'joinRoom');
    assert.equal(error.message, 'room lives on node relay-2');
    assert.equal(error.data.controlURL, 'ws://relay-2/rtc');
    return true;
  });
});

test('a request without an answer fails with RequestTimeout when the clock passes its timeout', async () => {
  const {channel, clock, sockets} = await openChannel(() => undefined);
  let outcome = null;
  channel.request('getStats', {}).then((r) => { outcome = {r}; }, (e) => { outcome = {e}; });
  await clock.advance(999);
  assert.equal(outcome, null, 'still waiting just before the timeout');
  await clock.advance(1);
  assert.ok(outcome && outcome.e, 'rejected at the timeout');
  assert.equal(outcome.e.code, ErrorCode.RequestTimeout);
  assert.equal(outcome.e.method, 'getStats');
  // A late answer is ignored, not given to another request.
  const late = sockets[0].sent[0].id;
  const next = channel.request('leaveRoom', {roomId: 'r'});
  sockets[0].receive({id: late, result: {stale: true}});
  await settle();
  assert.equal(channel.pendingCount, 1);
  sockets[0].receive({id: sockets[0].sent[1].id, result: {}});
  assert.deepEqual(await next, {});
});

test('a per-request timeout code is used for that request only (TRTC -3326 for a link)', async () => {
  const {channel, clock} = await openChannel(() => undefined);
  const link = assert.rejects(channel.request('connectOtherRoom', {}, {timeoutCode: ErrorCode.LinkConnectTimeout, timeoutMs: 500}),
    (e) => e.code === -3326 && e.method === 'connectOtherRoom');
  await clock.advance(500);
  await link;
});

test('an answer with id null (a frame the relay could not read) fails the oldest waiting request', async () => {
  const held = [];
  const {channel, sockets} = await openChannel((socket, request) => { held.push(request); });
  const first = channel.request('getStats', {});
  const second = channel.request('getStats', {});
  await settle();
  sockets[0].receive({id: null, error: {code: -32700, message: 'message is not valid JSON'}});
  await assert.rejects(first, (e) => e.code === -32700 && e.method === 'getStats');
  assert.equal(channel.pendingCount, 1);
  sockets[0].receive({id: held[1].id, result: {ok: 1}});
  assert.deepEqual(await second, {ok: 1});
});

test('events go to onEvent with their data', async () => {
  const {channel, events} = await openChannel((socket) => {
    socket.event('onUserJoined', {roomId: 'r', userId: 'u', role: 'anchor'});
    return {result: {}};
  });
  await channel.request('joinRoom', {});
  await settle();
  assert.deepEqual(events, [['onUserJoined', {roomId: 'r', userId: 'u', role: 'anchor'}]]);
});

test('a dropped socket fails waiting requests with NotConnected and is reported once', async () => {
  const {channel, sockets, closes} = await openChannel(() => undefined);
  const waiting = channel.request('getStats', {});
  await settle();
  sockets[0].drop();
  await assert.rejects(waiting, (e) => e.code === ErrorCode.NotConnected && e.method === 'getStats');
  assert.equal(closes.length, 1);
  assert.equal(channel.isOpen, false);
  await assert.rejects(channel.request('getStats', {}), (e) => e.code === ErrorCode.NotConnected);
});

test('closing the channel ourselves is not reported as a drop', async () => {
  const {channel, closes} = await openChannel(() => undefined);
  channel.close();
  await settle();
  assert.equal(closes.length, 0);
});

test('a WebSocket that never opens fails with ConnectFailed', async () => {
  const {FakeSocket} = fakeWebSocket({relay: () => undefined, opens: () => false});
  const channel = new ControlChannel({url: 'ws://down.test/rtc', WebSocket: FakeSocket, clock: new ManualClock()});
  await assert.rejects(channel.open(), (e) => e.code === ErrorCode.ConnectFailed && e.method === 'connect');
});
