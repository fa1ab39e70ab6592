/*
 * anchor.html?room=R&user=U: publishes camera and microphone into room R as anchor U and shows
 * whatever else is published there, which during a PK is the partner anchor linked in from the
 * other room. `&simulcast=1` sends the camera as big + small (the relay's dual stream), `&simulcast=3`
 * as big + medium + small;
 * `&scalabilityMode=L1T1` sets the browser's temporal layering of both encodings.
 */
import {PKRelayClient, InvitationState} from '../sdk/pkrelay.js';
import * as D from './demo.js';

const {pkDemo} = D;
const {room: roomId, user, relayUrl, tokenBase, query} = D.settings();
// `simulcast=3` sends three encodings (small, medium, big).
const simulcast = query.get('simulcast') === '3' ? 3 : query.get('simulcast') === '1';
const el = (id) => document.getElementById(id);

// PK state (pkDemo.pkState): idle, inviting, invited, linking, linked; pkDemo.peer = {roomId, userId}.
Object.assign(pkDemo, {pkState: 'idle', peer: null, simulcast, framesEncoded: async () => 0, encodings: async () => []});
let lastOutcome = '';
let outgoing = null;   // our invitation's id
let incoming = null;   // the invitation we may answer
let client = null;
let room = null;

function setPk(state, peer) {
  if (pkDemo.pkState !== state) D.log(`PK: ${pkDemo.pkState} -> ${state}`);
  pkDemo.pkState = state;
  if (peer !== undefined) pkDemo.peer = peer;
  el('invite-btn').disabled = !(pkDemo.state === 'live' && state === 'idle');
  el('cancel-btn').hidden = state !== 'inviting';
  el('hangup-btn').disabled = state !== 'linked';
  el('incoming').hidden = incoming === null;
  D.renderStatus();
}

D.setStatusExtras(() => {
  const peer = pkDemo.peer;
  const pk = {
    inviting: () => `PK: inviting ${peer.userId} of room ${peer.roomId}`,
    invited: () => 'PK: invitation received',
    linking: () => `PK: accepted, linking with ${peer.userId}`,
    linked: () => `PK: linked with ${peer.userId} of room ${peer.roomId}`,
  }[pkDemo.pkState];
  return (simulcast ? `simulcast: big + ${simulcast === 3 ? 'medium + ' : ''}small · ` : '') + (pk ? pk() : `PK: none${lastOutcome ? ` (${lastOutcome})` : ''}`);
});

/** Runs a request from a button; a refusal shows in the page with the relay's code. */
async function attempt(fn) {
  D.clearError();
  try {
    return await fn();
  } catch (e) {
    D.showError(e);
    return null;
  }
}

async function invite() {
  const peer = {roomId: el('invite-room').value.trim(), userId: el('invite-user').value.trim()};
  if (!peer.roomId || !peer.userId) return D.showError({method: 'invite', code: 'input', message: 'enter the anchor and the room to invite'});
  setPk('inviting', peer);
  // autoLink: the relay links both anchors when the invitee accepts.
  const result = await attempt(() => room.invite(peer.roomId, peer.userId, {autoLink: true}));
  if (result) outgoing = result.inviteId;
  else if (pkDemo.pkState === 'inviting') setPk('idle', null);
}

async function answer(accept) {
  const inviteId = incoming;
  if (accept) pkDemo.acceptedAt = Date.now();
  const ok = await attempt(() => (accept ? client.acceptInvitation(inviteId) : client.rejectInvitation(inviteId)));
  if (ok === null) {
    incoming = null;   // already ended or unknown: the banner is stale
    if (pkDemo.pkState === 'invited') setPk('idle', null);
  }
}

function followPk() {
  room.on('onInvitationReceived', (d) => {
    if (incoming !== null || pkDemo.pkState !== 'idle') {
      // One decision at a time: a second inviter hears that we are busy.
      client.rejectInvitation(d.inviteId, {reason: 'busy'}).catch((e) => D.showError(e));
      return;
    }
    incoming = d.inviteId;
    el('incoming-text').textContent = `Anchor ${d.fromUserId} of room ${d.fromRoomId} invites you to a PK${d.payload ? ` ("${d.payload}")` : ''}.`;
    setPk('invited', {roomId: d.fromRoomId, userId: d.fromUserId});
  });
  room.on('onInvitationStateChanged', (d) => {
    const ours = d.side === 'caller' ? d.inviteId === outgoing : d.inviteId === incoming;
    if (!ours || (d.side === 'caller' && d.state === InvitationState.ReceivedByRemote)) return;
    if (d.side === 'callee') incoming = null;
    else outgoing = null;
    if (d.state === InvitationState.Accepted) return setPk('linking');
    lastOutcome = `invitation ${{4: 'refused', 5: 'canceled', 6: 'failed'}[d.state] || 'state ' + d.state}${d.reason ? ': ' + d.reason : ''}`;
    if (pkDemo.pkState !== 'linked') setPk('idle', null);
  });
  room.on('onConnectOtherRoom', (d) => {
    if (d.errorCode === 0) return setPk('linked', {roomId: d.peerRoomId, userId: d.peerUserId});
    D.showError({method: 'onConnectOtherRoom', code: d.errorCode, message: d.message});
    if (pkDemo.pkState !== 'linked') setPk('idle', null);
  });
  // The relay's own figure for how long each direction of the PK took to be watchable.
  room.on('onForwardStreamFirstKeyframe', (d) => pkDemo.firstKeyframes.push({...d, at: Date.now()}));
  room.on('onDisconnectOtherRoom', (d) => {
    lastOutcome = `PK with ${d.peerUserId} ended: ${d.reason}`;
    setPk('idle', null);
  });
}

/** The publication's figures for the test driver: frames encoded, and each simulcast encoding. */
function followPublication(publication) {
  const outbound = async () => {
    const list = [];
    (await publication.getStats()).forEach((s) => s.type === 'outbound-rtp' && s.kind === 'video' && list.push(s));
    return list;
  };
  pkDemo.framesEncoded = async () => (await outbound()).reduce((n, s) => n + (s.framesEncoded || 0), 0);
  pkDemo.encodings = async () => (await outbound()).map((s) => ({
    rid: s.rid, ssrc: s.ssrc, active: s.active, frameWidth: s.frameWidth, frameHeight: s.frameHeight,
    framesEncoded: s.framesEncoded, framesSent: s.framesSent, bytesSent: s.bytesSent, targetBitrate: s.targetBitrate,
    qualityLimitationReason: s.qualityLimitationReason, encoderImplementation: s.encoderImplementation, scalabilityMode: s.scalabilityMode,
  })).sort((a, b) => String(a.rid).localeCompare(String(b.rid)));
  Object.defineProperty(pkDemo.peerConnections, 'publish', {get: () => publication.pc, enumerable: true, configurable: true});
}

async function start() {
  if (!D.requireIdentity('anchor')) return;
  el('invite-btn').addEventListener('click', invite);
  el('cancel-btn').addEventListener('click', () => outgoing && attempt(() => client.cancelInvitation(outgoing)));
  el('accept-btn').addEventListener('click', () => answer(true));
  el('reject-btn').addEventListener('click', () => answer(false));
  el('hangup-btn').addEventListener('click', () => attempt(() => room.disconnectOtherRoom()));
  setPk('idle');
  try {
    D.setState('camera');
    // Three encodings need 720p: libwebrtc gives a 640x360 camera two simulcast layers at most,
    // and with three it drops the top one.
    const [width, height] = simulcast === 3 ? [1280, 720] : [640, 360];
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: true, video: {width: {ideal: width}, height: {ideal: height}, frameRate: {ideal: 30}},
    });
    el('preview').srcObject = stream;

    D.setState('token');
    const token = await D.fetchToken(tokenBase, roomId, user);

    D.setState('joining');
    // The SDK asks for a new token when the relay warns that this one expires.
    client = new PKRelayClient({url: relayUrl, tokenProvider: () => D.fetchToken(tokenBase, roomId, user), log: D.log});
    D.follow(client, () => {
      const publication = room && room.publications.get('main');
      D.setState(publication && publication.state === 'connected' ? 'live' : 'publishing');
    });
    D.followVideoStats(client);
    client.on('onPublicationStateChanged', (d) => {
      if (d.state === 'connected') D.setState('live');
      setPk(pkDemo.pkState);
    });
    // Joined with auto-subscribe: everything published in the room arrives, a PK partner too.
    room = await client.joinRoom({roomId, userId: user, token, role: 'anchor'});
    D.setState('joined');
    const grid = new D.TileGrid(room, el('remote-tiles'), 'No partner yet: invite an anchor of another room.');
    pkDemo.tiles = () => grid.ids();
    pkDemo.firstFrames = () => grid.firstFrames();
    D.followExit(room);
    followPk();

    const publication = await room.publish(stream, {simulcast, scalabilityMode: query.get('scalabilityMode') || undefined});
    followPublication(publication);
    if (pkDemo.state !== 'live') D.setState('publishing');
  } catch (e) {
    D.showError(e);
    D.setState('error');
  }
}

start();
