// The SDK's media bookkeeping with stand-ins for RTCPeerConnection: one peer connection per
// relay transport, the relay's offers answered one at a time and in order, simulcast publishing,
// a failed publish transport published again, and a reconnection that republishes, resubscribes
// on a new receiving transport and restores layer choices. Real WebRTC: the browser test.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {PKRelayClient, DEFAULT_SIMULCAST_ENCODINGS} from '../../Sources/PKRelayServer/SDK/pkrelay.js';
import {ManualClock, fakeWebSocket, fakeWebRTC, settle} from './fakes.mjs';

/** A relay that numbers transports, accepts joins and publishes, and can hold chosen methods. */
function relay({hold = new Set(), users = [], iceServers} = {}) {
  let transports = 0;
  const held = [];
  const handler = (socket, request) => {
    const p = request.params;
    if (hold.has(request.method)) {
      held.push({socket, request});
      return undefined;
    }
    switch (request.method) {
      case 'createTransport':
        return {result: {transportId: ++transports, kind: 'webrtc', ip: '127.0.0.1', port: 7702, ...(iceServers ? {iceServers} : {})}};
      case 'joinRoom':
        return {result: {roomId: p.roomId, userId: p.userId, role: p.role, visible: p.visible, users, tokenExpiresAt: 1}};
      case 'publishStream':
        return {result: {roomId: p.roomId, streamIndex: p.streamIndex, mediaType: 3, sdp: `answer for transport ${p.transportId}`}};
      case 'restartIce':
        return {result: p.sdp ? {sdp: `restart answer for transport ${p.transportId}`} : {revision: 1}};
      case 'setRemoteVideoStreamType':
        return {result: {roomId: p.roomId, userId: p.userId, streamIndex: p.streamIndex, state: 0, tracks: []}};
      default:
        return {result: {}};
    }
  };
  return {handler, held};
}

function setup(relayOptions) {
  const clock = new ManualClock();
  const r = relay(relayOptions);
  const {FakeSocket, sockets} = fakeWebSocket({relay: r.handler});
  const webrtc = fakeWebRTC();
  const client = new PKRelayClient({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, RTCPeerConnection: webrtc.FakePeerConnection,
    MediaStream: webrtc.FakeMediaStream, clock, random: () => 0.5,
  });
  const seen = [];
  for (const name of ['onPublicationStateChanged', 'onReconnected', 'onError']) client.on(name, (d) => seen.push([name, d]));
  return {client, clock, sockets, webrtc, held: r.held, seen};
}

const JOIN = {roomId: 'room-a', userId: 'anchor-a', token: 't'};
const camera = (webrtc) => new webrtc.FakeMediaStream([new webrtc.FakeTrack('audio'), new webrtc.FakeTrack('video')]);

test('a join with auto-subscribe opens the receiving transport first, for its room, and names it subscribeTransportId', async () => {
  const {client, sockets, webrtc} = setup();
  await client.joinRoom(JOIN);
  assert.deepEqual(sockets[0].methods(), ['createTransport', 'joinRoom']);
  // The room goes with it, so that the relay places the transport on the room's media thread;
  // receiveOnly lets it go to another thread when the room's audience has outgrown one.
  assert.deepEqual(sockets[0].sent[0].params, {kind: 'webrtc', roomId: JOIN.roomId, receiveOnly: true});
  assert.equal(sockets[0].sent[1].params.roomConfig.subscribeTransportId, 1);
  assert.equal(client.receiveTransportId, 1);
  assert.equal(webrtc.peerConnections.length, 1);
  assert.equal(webrtc.peerConnections[0].config.rtcpMuxPolicy, 'require');
});

test('the relay\'s offers are answered one at a time, in order, each with its revision', async () => {
  const {client, sockets, webrtc, held} = setup({hold: new Set(['answerTransportOffer'])});
  await client.joinRoom(JOIN);
  const pc = webrtc.peerConnections[0];
  sockets[0].receive({event: 'onTransportOffer', data: {transportId: 1, revision: 1, sdp: 'offer 1'}});
  sockets[0].receive({event: 'onTransportOffer', data: {transportId: 1, revision: 2, sdp: 'offer 2'}});
  sockets[0].receive({event: 'onTransportOffer', data: {transportId: 99, revision: 1, sdp: 'another transport'}});
  await settle();
  assert.equal(held.length, 1, 'one answer at a time');
  assert.deepEqual(held[0].request.params, {transportId: 1, revision: 1, sdp: 'answer to offer 1'});
  assert.deepEqual(pc.calls.filter((c) => c[0] === 'remote').map((c) => c[2]), ['offer 1'], 'offer 2 waits for the answer to offer 1');
  held[0].socket.receive({id: held[0].request.id, result: {}});
  await settle();
  assert.equal(held.length, 2);
  assert.deepEqual(held[1].request.params, {transportId: 1, revision: 2, sdp: 'answer to offer 2'});
  assert.deepEqual(pc.calls.filter((c) => c[0] === 'remote').map((c) => c[2]), ['offer 1', 'offer 2']);
});

test('publishing with simulcast offers the smallest encoding first on a transport of its own', async () => {
  const {client, sockets, webrtc} = setup();
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc), {simulcast: true});
  const pc = webrtc.peerConnections[1];
  assert.equal(pc.config.bundlePolicy, 'max-bundle');
  const video = pc.transceivers.find((t) => t.track.kind === 'video');
  const audio = pc.transceivers.find((t) => t.track.kind === 'audio');
  assert.deepEqual(video.init.sendEncodings.map((e) => e.rid), ['q', 'f']);
  assert.deepEqual(video.init.sendEncodings, DEFAULT_SIMULCAST_ENCODINGS.map((e) => ({...e})));
  assert.equal(audio.init.sendEncodings, undefined);
  assert.equal(video.init.direction, 'sendonly');
  const publish = sockets[0].sent.find((r) => r.method === 'publishStream');
  assert.deepEqual(publish.params, {roomId: 'room-a', streamIndex: 'main', transportId: 2, sdp: 'offer with 2 sections'});
  assert.deepEqual(pc.calls.at(-1), ['remote', 'answer', 'answer for transport 2']);
  assert.equal(publication.transportId, 2);
  assert.equal(publication.mediaType, 3);
  assert.equal(room.publications.get('main'), publication);
});

test('encodings below the top one are turned off while nobody receives them, and on again when someone does', async () => {
  const {client, sockets, webrtc} = setup();
  const room = await client.joinRoom(JOIN);
  await room.publish(camera(webrtc), {simulcast: 3});
  const pc = webrtc.peerConnections[1];
  const video = pc.transceivers.find((t) => t.track.kind === 'video');
  assert.deepEqual(video.init.sendEncodings.map((e) => e.rid), ['q', 'h', 'f']);
  const layers = (small, medium) => sockets[0].receive({
    event: 'onSubscribedLayersChanged',
    data: {roomId: 'room-a', streamIndex: 'main', bigSubscribed: true, smallSubscribed: small, mediumSubscribed: medium},
  });
  // Viewers on big only: small and medium off; the big one is never touched.
  layers(false, false);
  await settle();
  assert.deepEqual(pc.calls.filter((c) => c[0] === 'setParameters'), [['setParameters', 'q:off h:off f:on']]);
  // A viewer moved to medium: it runs again.
  layers(false, true);
  await settle();
  assert.deepEqual(pc.calls.filter((c) => c[0] === 'setParameters').at(-1), ['setParameters', 'q:off h:on f:on']);
  // The same state again changes nothing.
  layers(false, true);
  await settle();
  assert.equal(pc.calls.filter((c) => c[0] === 'setParameters').length, 2);
});

test('a failed publish transport is published again on a new one, and the old one closed', async () => {
  const {client, sockets, webrtc, seen} = setup();
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc));
  webrtc.peerConnections[1].become('connected');
  sockets[0].receive({event: 'onTransportStateChanged', data: {transportId: 2, state: 'failed', errorCode: 4017, reason: 'ICE consent lapsed'}});
  await settle();
  const after = sockets[0].methods().slice(sockets[0].methods().indexOf('publishStream') + 1);
  assert.deepEqual(after, ['closeTransport', 'createTransport', 'publishStream']);
  // A publishing transport may publish, so it stays with its room's publishers.
  assert.deepEqual(sockets[0].sent.filter((r) => r.method === 'createTransport').slice(1).map((r) => r.params),
    [{kind: 'webrtc', roomId: JOIN.roomId}, {kind: 'webrtc', roomId: JOIN.roomId}]);
  assert.equal(publication.transportId, 3);
  assert.ok(webrtc.peerConnections[1].closed);
  assert.equal(publication.pc, webrtc.peerConnections[2]);
  const states = seen.filter(([n]) => n === 'onPublicationStateChanged').map(([, d]) => d.state);
  assert.deepEqual(states, ['connecting', 'connected', 'republishing', 'connecting']);
});

test('a reconnection republishes the same tracks, resubscribes on a new receiving transport and restores layer choices', async () => {
  // anchor-c is in the room again after the rejoin, so its layer choice is restored.
  const {client, clock, sockets, webrtc, seen} = setup({users: [{userId: 'anchor-c', role: 'anchor', streams: [{streamIndex: 'main', mediaType: 3}]}]});
  const room = await client.joinRoom(JOIN);
  const stream = camera(webrtc);
  const publication = await room.publish(stream);
  await room.subscribe('anchor-b', {streamIndex: 'screen', mediaType: 2});
  await room.setRemoteVideoStreamType('anchor-c', 1);
  sockets[0].drop();
  await clock.advance(1000);
  const second = sockets[1];
  assert.deepEqual(second.methods(), ['createTransport', 'joinRoom', 'createTransport', 'publishStream', 'subscribeStream', 'setRemoteVideoStreamType']);
  const [join, publish, subscribe, layer] = ['joinRoom', 'publishStream', 'subscribeStream', 'setRemoteVideoStreamType']
    .map((m) => second.sent.find((r) => r.method === m).params);
  assert.equal(join.roomConfig.subscribeTransportId, 3, 'the new receiving transport');
  assert.equal(publish.transportId, 4);
  assert.deepEqual({userId: subscribe.userId, streamIndex: subscribe.streamIndex, mediaType: subscribe.mediaType, transportId: subscribe.transportId},
    {userId: 'anchor-b', streamIndex: 'screen', mediaType: 2, transportId: 3});
  assert.deepEqual({userId: layer.userId, streamType: layer.streamType}, {userId: 'anchor-c', streamType: 1});
  assert.equal(publication.mediaStream, stream, 'the same MediaStream');
  assert.equal(webrtc.peerConnections.at(-1).transceivers.length, 2, 'its tracks on the new peer connection');
  assert.ok(webrtc.peerConnections[0].closed && webrtc.peerConnections[1].closed, 'the old peer connections are closed');
  assert.deepEqual(seen.find(([n]) => n === 'onReconnected')[1].failures, []);
});

test('after the relay shuts down the client rejoins through the URL the app gave', async () => {
  const clock = new ManualClock();
  const r = relay();
  const {FakeSocket, sockets} = fakeWebSocket({
    relay: (socket, request) => (request.method === 'joinRoom' && socket.url === 'ws://entry.test/rtc'
      ? {error: {code: 4030, message: 'elsewhere', data: {controlURL: 'ws://node-1.test/rtc', nodeId: 'node-1'}}}
      : r.handler(socket, request)),
  });
  const client = new PKRelayClient({url: 'ws://entry.test/rtc', WebSocket: FakeSocket, clock, random: () => 0.5});
  const exits = [];
  client.on('onExitRoom', (d) => exits.push(d));
  const room = await client.joinRoom({...JOIN, autoSubscribe: false});
  assert.equal(client.url, 'ws://node-1.test/rtc');
  sockets[1].receive({event: 'onExitRoom', data: {roomId: 'room-a', reason: 4, code: -32002, message: 'the relay is shutting down'}});
  assert.equal(exits.length, 1, 'the app hears the shutdown');
  assert.equal(client.rooms.get('room-a'), room, 'the room is kept for the rejoin');
  sockets[1].close(1001);
  await clock.advance(1000);
  assert.deepEqual(sockets.slice(2).map((s) => s.url), ['ws://entry.test/rtc', 'ws://node-1.test/rtc'],
    'first the URL the app gave, then the node its redirect names');
  assert.deepEqual(sockets[3].methods(), ['joinRoom']);
  assert.equal(client.connectionState, 'connected');
});

test('a failed receiving transport restores the session as after a dropped connection', async () => {
  const {client, clock, sockets, webrtc} = setup();
  const states = [];
  client.on('onConnectionStateChanged', (d) => states.push(`${d.state}:${d.reason}`));
  await client.joinRoom(JOIN);
  webrtc.peerConnections[0].become('failed');
  await settle();
  assert.ok(sockets[0].closed, 'the old connection is closed (its transports with it)');
  assert.ok(webrtc.peerConnections[0].closed);
  await clock.advance(1000);
  assert.deepEqual(sockets[1].methods(), ['createTransport', 'joinRoom']);
  assert.equal(sockets[1].sent[1].params.roomConfig.subscribeTransportId, 2);
  assert.deepEqual(states.slice(-2), ['reconnecting:transportFailed: the receive transport lost ICE connectivity', 'connected:reconnected']);
});

test('leaving a room sends leaveRoom before its publications\' transports close', async () => {
  const {client, sockets, webrtc} = setup();
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc));
  await room.leave();
  await settle();
  const methods = sockets[0].methods();
  assert.deepEqual(methods.slice(methods.indexOf('publishStream') + 1), ['leaveRoom', 'closeTransport']);
  assert.equal(sockets[0].sent.at(-1).params.transportId, 2);
  assert.equal(publication.state, 'closed');
  assert.ok(webrtc.peerConnections[1].closed);
  assert.equal(client.rooms.size, 0);
});

test('a screen share is a second publication on a transport of its own', async () => {
  const {client, sockets, webrtc} = setup();
  const room = await client.joinRoom(JOIN);
  const main = await room.publish(camera(webrtc));
  const screen = await room.publish(new webrtc.FakeMediaStream([new webrtc.FakeTrack('video')]), {streamIndex: 'screen'});
  const publishes = sockets[0].sent.filter((r) => r.method === 'publishStream').map((r) => [r.params.streamIndex, r.params.transportId]);
  assert.deepEqual(publishes, [['main', 2], ['screen', 3]]);
  assert.notEqual(main.pc, screen.pc);
  assert.deepEqual([...room.publications.keys()], ['main', 'screen']);
  await room.unpublish('screen');
  assert.deepEqual(sockets[0].sent.filter((r) => r.method === 'unpublishStream').map((r) => r.params), [{roomId: 'room-a', streamIndex: 'screen'}]);
  assert.deepEqual([...room.publications.keys()], ['main']);
  assert.ok(webrtc.peerConnections[2].closed);
});

test('a refused answer is sent once more, then the receiving transport is recovered', async () => {
  const clock = new ManualClock();
  const r = relay();
  let refuse = true;
  const {FakeSocket, sockets} = fakeWebSocket({
    relay: (socket, request) => (request.method === 'answerTransportOffer' && refuse
      ? {error: {code: 4018, message: 'the SDP answer cannot be used'}}
      : r.handler(socket, request)),
  });
  const webrtc = fakeWebRTC();
  const client = new PKRelayClient({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, RTCPeerConnection: webrtc.FakePeerConnection,
    MediaStream: webrtc.FakeMediaStream, clock, random: () => 0.5,
  });
  const errors = [];
  client.on('onError', (d) => errors.push(d));
  await client.joinRoom(JOIN);
  sockets[0].receive({event: 'onTransportOffer', data: {transportId: 1, revision: 1, sdp: 'offer 1'}});
  await settle();
  assert.deepEqual(sockets[0].methods().filter((m) => m === 'answerTransportOffer'), ['answerTransportOffer', 'answerTransportOffer']);
  assert.deepEqual(errors.map((e) => [e.context, e.error.code]), [['answerTransportOffer', 4018]]);
  assert.ok(sockets[0].closed, 'the session is restored on a new connection');
  refuse = false;
  await clock.advance(1000);
  assert.deepEqual(sockets[1].methods(), ['createTransport', 'joinRoom']);
  assert.equal(client.connectionState, 'connected');
});

test('calls the app makes while the session is being restored fail with NotConnected; nothing is published twice', async () => {
  const clock = new ManualClock();
  const r = relay();
  let joins = 0;
  let heldJoin = null;
  const {FakeSocket, sockets} = fakeWebSocket({
    relay: (socket, request) => {
      if (request.method === 'joinRoom' && ++joins === 2) { heldJoin = {socket, request}; return undefined; }
      return r.handler(socket, request);
    },
  });
  const webrtc = fakeWebRTC();
  const client = new PKRelayClient({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, RTCPeerConnection: webrtc.FakePeerConnection,
    MediaStream: webrtc.FakeMediaStream, clock, random: () => 0.5,
  });
  const room = await client.joinRoom(JOIN);
  await room.publish(camera(webrtc));
  sockets[0].drop();
  await clock.advance(500);
  assert.ok(heldJoin, 'the rejoin is on its way: the channel is open, the state still reconnecting');
  await assert.rejects(room.publish(camera(webrtc), {streamIndex: 'screen'}), (e) => e.code === 4902);
  await assert.rejects(room.subscribe('anchor-b'), (e) => e.code === 4902);
  await assert.rejects(room.sendRoomMessage('hi'), (e) => e.code === 4902);
  const p = heldJoin.request.params;
  heldJoin.socket.receive({id: heldJoin.request.id, result: {roomId: p.roomId, userId: p.userId, role: 'anchor', visible: true, users: [], tokenExpiresAt: 1}});
  await clock.advance(100);
  assert.equal(client.connectionState, 'connected');
  assert.deepEqual(sockets[1].methods(), ['createTransport', 'joinRoom', 'createTransport', 'publishStream']);
  assert.deepEqual([...room.publications.keys()], ['main']);
});

test('a section reused for another publisher\'s track replaces its receiver: statistics name the new user, listeners do not pile up', async () => {
  const {client, webrtc} = setup();
  await client.joinRoom(JOIN);
  const pc = webrtc.peerConnections[0];
  const removed = [];
  client.on('onRemoteTrackRemoved', (d) => removed.push(d.userId));
  const track = pc.deliver('video', 'anchor-b', '0');
  assert.ok(client.remoteMediaStream('anchor-b').getTracks().includes(track));
  // anchor-b's track ended, its section went inactive; the relay reuses it for anchor-c.
  assert.equal(pc.deliver('video', 'anchor-c', '0'), track, 'the browser reuses the track object');
  assert.deepEqual(removed, ['anchor-b'], 'the track left anchor-b\'s stream');
  assert.equal(client.remoteMediaStream('anchor-b').getTracks().length, 0);
  assert.ok(client.remoteMediaStream('anchor-c').getTracks().includes(track));
  assert.deepEqual((await client.getRemoteVideoStats()).map((s) => s.userId), ['anchor-c']);
  assert.equal(track.listenerCount('ended'), 1);
  pc.deliver('video', 'anchor-c', '0');
  assert.equal(track.listenerCount('ended'), 1);
  assert.equal((await client.getRemoteVideoStats()).length, 1);
});

test('a publication whose new transports keep failing is republished with backoff, then given up as failed', async () => {
  const {client, clock, sockets, webrtc, seen} = setup();
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc));
  const publishes = () => sockets[0].methods().filter((m) => m === 'publishStream').length;
  webrtc.peerConnections.at(-1).become('failed');
  await settle();
  assert.equal(publishes(), 2, 'the first republish is immediate');
  webrtc.peerConnections.at(-1).become('failed');
  await settle();
  assert.equal(publishes(), 2, 'a second failure in a row waits');
  await clock.advance(499);
  assert.equal(publishes(), 2);
  await clock.advance(1);
  assert.equal(publishes(), 3, 'after the backoff delay');
  for (let i = 0; i < 3; i++) {
    webrtc.peerConnections.at(-1).become('failed');
    await clock.advance(10000);
  }
  assert.equal(publishes(), 6, 'five republishes in all');
  webrtc.peerConnections.at(-1).become('failed');
  await clock.advance(60000);
  assert.equal(publishes(), 6, 'then no more');
  assert.equal(publication.state, 'failed');
  const errors = seen.filter(([n]) => n === 'onError').map(([, d]) => d);
  assert.deepEqual(errors.map((e) => [e.context, e.roomId]), [['republish', 'room-a']]);
});

test('a republished transport that connects resets the count of failures in a row', async () => {
  const {client, sockets, webrtc} = setup();
  const room = await client.joinRoom(JOIN);
  await room.publish(camera(webrtc));
  const publishes = () => sockets[0].methods().filter((m) => m === 'publishStream').length;
  for (let i = 0; i < 8; i++) {
    webrtc.peerConnections.at(-1).become('failed');
    await settle();
    webrtc.peerConnections.at(-1).become('connected');
  }
  assert.equal(publishes(), 9, 'each failure after a connected transport is republished at once');
});

test('a main stream whose userId ends in -screen is not taken for a screen stream', async () => {
  const {client, sockets, webrtc} = setup({users: [
    {userId: 'cam-screen', role: 'anchor', streams: [{streamIndex: 'main', mediaType: 3}]},
    {userId: 'bob', role: 'anchor', streams: [{streamIndex: 'screen', mediaType: 2}]},
  ]});
  await client.joinRoom(JOIN);
  const pc = webrtc.peerConnections[0];
  const added = [];
  client.on('onRemoteTrackAdded', (d) => added.push([d.userId, d.streamIndex]));
  // Known only from the room's users: cam-screen publishes main, and no user cam publishes a screen.
  pc.deliver('video', 'cam-screen', '0');
  // bob's screen: the suffix, and bob publishes a screen.
  pc.deliver('video', 'bob-screen', '1');
  assert.deepEqual(added, [['cam-screen', 'main'], ['bob', 'screen']]);
  // Ambiguous by the room's users (a user x-screen with main, a user x with a screen): the SSRC
  // that onStreamSubscribed announced for the section decides.
  for (const [userId, streamIndex, ssrc] of [['x-screen', 'main', 1111], ['x', 'screen', 2222]]) {
    sockets[0].receive({event: 'onUserJoined', data: {roomId: 'room-a', userId, role: 'anchor'}});
    sockets[0].receive({event: 'onUserPublishStream', data: {roomId: 'room-a', userId, streamIndex, mediaType: 2}});
    sockets[0].receive({event: 'onStreamSubscribed', data: {roomId: 'room-a', userId, streamIndex, state: 0,
      tracks: [{kind: 'video', ssrc, payloadType: 96, codec: 'VP8', clockRate: 90000, transportId: 1}]}});
  }
  pc.remoteDescription = {type: 'offer', sdp: 'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:2\r\na=ssrc:2222 cname:x\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:3\r\na=ssrc:1111 cname:x-screen\r\n'};
  pc.deliver('video', 'x-screen', '2');
  pc.deliver('video', 'x-screen', '3');
  assert.deepEqual(added.slice(2), [['x', 'screen'], ['x-screen', 'main']]);
});

test('a room left while its publication is being restored reports no failure, and its publication stays closed', async () => {
  const clock = new ManualClock();
  const r = relay();
  let publishes = 0;
  let heldPublish = null;
  const {FakeSocket, sockets} = fakeWebSocket({
    relay: (socket, request) => {
      if (request.method === 'publishStream' && ++publishes === 2) { heldPublish = {socket, request}; return undefined; }
      return r.handler(socket, request);
    },
  });
  const webrtc = fakeWebRTC();
  const client = new PKRelayClient({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, RTCPeerConnection: webrtc.FakePeerConnection,
    MediaStream: webrtc.FakeMediaStream, clock, random: () => 0.5,
  });
  const reports = [];
  client.on('onReconnected', (d) => reports.push(d));
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc));
  sockets[0].drop();
  await clock.advance(500);
  assert.ok(heldPublish, 'the publication is being restored');
  await room.leave();
  heldPublish.socket.receive({id: heldPublish.request.id, error: {code: 4001, message: 'not in room room-a'}});
  await clock.advance(100);
  assert.deepEqual(sockets[1].methods().slice(0, 5), ['createTransport', 'joinRoom', 'createTransport', 'publishStream', 'leaveRoom']);
  assert.equal(publication.state, 'closed');
  assert.deepEqual(reports.map((d) => [d.rooms, d.failures]), [[[], []]], 'the left room is neither restored nor failed');
});

test('a publication whose ICE goes disconnected restarts ICE on the same transport, again while it stays disconnected', async () => {
  const {client, clock, sockets, webrtc, seen} = setup();
  const room = await client.joinRoom(JOIN);
  const publication = await room.publish(camera(webrtc));
  const pc = webrtc.peerConnections[1];
  pc.become('connected');
  pc.become('disconnected');
  await settle();
  const restarts = () => sockets[0].sent.filter((r) => r.method === 'restartIce');
  assert.equal(restarts().length, 1);
  assert.deepEqual(restarts()[0].params, {transportId: 2, sdp: 'offer with 2 sections'});
  assert.deepEqual(pc.calls.filter((c) => c[0] === 'createOffer').at(-1), ['createOffer', {iceRestart: true}]);
  assert.deepEqual(pc.calls.at(-1), ['remote', 'answer', 'restart answer for transport 2']);
  assert.equal(publication.transportId, 2, 'the same transport');
  assert.ok(!pc.closed);
  assert.ok(!sockets[0].methods().includes('closeTransport'));
  await clock.advance(5000);
  assert.equal(restarts().length, 2, 'still disconnected after 5 s: restarted again');
  pc.become('connected');
  await clock.advance(20000);
  assert.equal(restarts().length, 2, 'connected again: no more restarts');
  assert.deepEqual(seen.filter(([n]) => n === 'onError').map(([, d]) => `${d.context}: ${d.error.message}`), []);
});

test('a receiving transport whose ICE goes disconnected asks the relay for an offer with new credentials', async () => {
  const {client, sockets, webrtc} = setup();
  await client.joinRoom(JOIN);
  const pc = webrtc.peerConnections[0];
  pc.become('connected');
  pc.become('disconnected');
  await settle();
  const restarts = sockets[0].sent.filter((r) => r.method === 'restartIce');
  assert.deepEqual(restarts.map((r) => r.params), [{transportId: 1}]);
  assert.ok(!pc.closed && client.receiveTransportId === 1, 'the same transport');
  // The relay's new offer is answered as usual.
  sockets[0].receive({event: 'onTransportOffer', data: {transportId: 1, revision: 1, sdp: 'offer with new credentials'}});
  await settle();
  const answers = sockets[0].sent.filter((r) => r.method === 'answerTransportOffer');
  assert.deepEqual(answers.at(-1).params, {transportId: 1, revision: 1, sdp: 'answer to offer with new credentials'});
});

test('the STUN and TURN servers the relay names for a transport go to its peer connection', async () => {
  const servers = [{urls: ['turn:turn.example.com:3478?transport=tcp'], username: '1700086400:anchor-a', credential: 'c2VjcmV0'}];
  const {client, webrtc} = setup({iceServers: servers});
  const room = await client.joinRoom(JOIN);
  await room.publish(camera(webrtc));
  assert.deepEqual(webrtc.peerConnections[0].config.iceServers, servers, 'the receiving transport');
  assert.deepEqual(webrtc.peerConnections[1].config.iceServers, servers, 'the publishing transport');
  assert.equal(webrtc.peerConnections[1].config.bundlePolicy, 'max-bundle');
});

test('a rendered size goes to the relay after resizes settle, is restored after a reconnection, and stopping lifts it', async () => {
  const clock = new ManualClock();
  const r = relay();
  const {FakeSocket, sockets} = fakeWebSocket({relay: r.handler});
  const webrtc = fakeWebRTC();
  const observers = [];
  class FakeResizeObserver {
    constructor(callback) { this.callback = callback; this.observed = []; this.disconnected = false; observers.push(this); }
    observe(element) { this.observed.push(element); }
    disconnect() { this.disconnected = true; }
  }
  const client = new PKRelayClient({
    url: 'ws://relay.test/rtc', WebSocket: FakeSocket, RTCPeerConnection: webrtc.FakePeerConnection,
    MediaStream: webrtc.FakeMediaStream, ResizeObserver: FakeResizeObserver, clock, random: () => 0.5,
  });
  const room = await client.joinRoom(JOIN);
  const configs = (socket) => socket.sent.filter((r) => r.method === 'setRemoteVideoConfig').map((r) => r.params);
  const video = {clientWidth: 160, clientHeight: 90};
  const stop = room.observeRenderedSize('anchor-b', video);
  assert.equal(observers[0].observed[0], video);
  // Two resizes in quick succession: one request, 250 ms after the last, with the last size.
  observers[0].callback();
  await clock.advance(100);
  video.clientWidth = 320;
  video.clientHeight = 180;
  observers[0].callback();
  await clock.advance(249);
  assert.deepEqual(configs(sockets[0]), []);
  await clock.advance(1);
  await settle();
  assert.deepEqual(configs(sockets[0]), [{roomId: JOIN.roomId, userId: 'anchor-b', streamIndex: 'main', width: 320, height: 180}]);
  // The same size again sends nothing.
  observers[0].callback();
  await clock.advance(250);
  await settle();
  assert.equal(configs(sockets[0]).length, 1);

  // A reconnection sets it again on the new connection.
  sockets[0].drop();
  await clock.advance(1000);
  await settle();
  assert.deepEqual(configs(sockets[1]), [{roomId: JOIN.roomId, userId: 'anchor-b', streamIndex: 'main', width: 320, height: 180}]);

  // Stopping disconnects the observer and lifts the ceiling, which is then not restored.
  stop();
  await settle();
  assert.ok(observers[0].disconnected);
  assert.deepEqual(configs(sockets[1]).at(-1), {roomId: JOIN.roomId, userId: 'anchor-b', streamIndex: 'main', width: 0, height: 0});
  sockets[1].drop();
  await clock.advance(1000);
  await settle();
  assert.deepEqual(configs(sockets[2]), []);
});
