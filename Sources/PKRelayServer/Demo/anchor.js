/*
 * anchor.html?room=R&user=U: publishes camera and microphone into room R as anchor U, and
 * receives whatever else is published there, which during a PK is the partner anchor linked
 * in from the other room.
 *
 * With `&simulcast=1` the camera is sent twice (WebRTC simulcast): a small encoding at half
 * the resolution and a big one. The relay takes them as the anchor's dual stream, and each
 * viewer chooses which one it receives (setRemoteVideoStreamType).
 */
'use strict';

(() => {
  const D = PKRelayDemo;
  const pkDemo = D.pkDemo;
  const {room, user, relayUrl, tokenBase} = D.settings();
  const pageQuery = new URLSearchParams(location.search);
  const simulcast = pageQuery.get('simulcast') === '1';
  // Optional `scalabilityMode=L1T1` (with simulcast): the browser's temporal layering of each
  // encoding, left to the browser (L1T3 for VP8 in Chromium) when absent. Comparing both shows
  // whether a problem at a layer switch depends on temporal layers.
  const scalabilityMode = pageQuery.get('scalabilityMode');

  /*
   * The simulcast encodings, listed from the smallest to the largest: the relay takes the last
   * rid of the offer as the big video and the first as the small one (docs/PROTOCOL.md, dual
   * stream). The bitrate caps keep the small layer cheap, as a viewer on a weak network needs.
   */
  const SIMULCAST_ENCODINGS = [
    {rid: 'q', scaleResolutionDownBy: 2, maxBitrate: 200000},
    {rid: 'f', maxBitrate: 1200000},
  ];

  /*
   * PK state shown in the status line and read by the test driver as pkDemo.pkState:
   *   idle      no invitation, no link
   *   inviting  our invitation waits for an answer
   *   invited   someone invites us (banner with Accept / Reject)
   *   linking   an invitation was accepted, the link is being made
   *   linked    the link is up; pkDemo.peer = {roomId, userId}
   */
  pkDemo.pkState = 'idle';
  pkDemo.peer = null;
  pkDemo.framesEncoded = async () => 0;
  pkDemo.simulcast = simulcast;
  pkDemo.encodings = async () => [];

  // How the last invitation or PK ended, shown while idle so that a refusal is not silent.
  let lastOutcome = '';

  const outgoing = {inviteId: null};
  const incoming = {inviteId: null};

  const el = (id) => document.getElementById(id);

  function setPk(state, peer) {
    if (pkDemo.pkState !== state) D.log(`PK: ${pkDemo.pkState} -> ${state}`);
    pkDemo.pkState = state;
    if (peer !== undefined) pkDemo.peer = peer;
    renderPk();
  }

  function renderPk() {
    const state = pkDemo.pkState;
    el('invite-btn').disabled = !(pkDemo.state === 'live' && state === 'idle');
    el('cancel-btn').hidden = state !== 'inviting';
    el('hangup-btn').disabled = state !== 'linked';
    el('incoming').hidden = incoming.inviteId === null;
    D.renderStatus();
  }

  function pkStatus() {
    const peer = pkDemo.peer;
    switch (pkDemo.pkState) {
      case 'inviting': return `PK: inviting ${peer.userId} of room ${peer.roomId}`;
      case 'invited': return 'PK: invitation received';
      case 'linking': return `PK: accepted, linking with ${peer.userId}`;
      case 'linked': return `PK: linked with ${peer.userId} of room ${peer.roomId}`;
      default: return lastOutcome ? `PK: none (${lastOutcome})` : 'PK: none';
    }
  }

  D.setStatusExtras(() => (simulcast ? 'simulcast: big + small · ' : '') + pkStatus());

  /**
   * Publishes the local tracks on their own WebRTC transport: the browser offers, the relay
   * answers in the publishStream result.
   */
  async function publish(relay, stream) {
    const transport = await relay.request('createTransport', {kind: 'webrtc'});
    const pc = new RTCPeerConnection(D.PUBLISH_CONFIG);
    pkDemo.peerConnections.publish = pc;
    for (const track of stream.getTracks()) {
      const init = {direction: 'sendonly', streams: [stream]};
      if (simulcast && track.kind === 'video') {
        init.sendEncodings = SIMULCAST_ENCODINGS.map((e) => (scalabilityMode ? {...e, scalabilityMode} : {...e}));
      }
      pc.addTransceiver(track, init);
    }
    pc.onconnectionstatechange = () => {
      D.log(`publish transport ${transport.transportId}: ${pc.connectionState}`);
      if (pc.connectionState === 'connected') {
        D.setState('live');
        renderPk();
      } else if (pc.connectionState === 'failed') {
        D.showError({method: 'publish', code: 'ice', message: 'the browser could not connect the publish transport'});
        D.setState('error');
      }
    };
    // The relay is ICE-lite, so the offer goes out without waiting for candidates; the
    // browser's checks reach the relay's address in the answer.
    await pc.setLocalDescription(await pc.createOffer());
    const result = await relay.request('publishStream', {
      roomId: room, streamIndex: 'main', transportId: transport.transportId, sdp: pc.localDescription.sdp,
    });
    await pc.setRemoteDescription({type: 'answer', sdp: result.sdp});
    if (pkDemo.state !== 'live') D.setState('publishing');

    pkDemo.framesEncoded = async () => {
      let total = 0;
      (await pc.getStats()).forEach((entry) => {
        if (entry.type === 'outbound-rtp' && entry.kind === 'video') total += entry.framesEncoded || 0;
      });
      return total;
    };
    // One entry per video encoding sent (two with simulcast): shows whether the browser
    // actually sends the small layer, and why an encoding is held back.
    pkDemo.encodings = async () => {
      const list = [];
      (await pc.getStats()).forEach((entry) => {
        if (entry.type !== 'outbound-rtp' || entry.kind !== 'video') return;
        list.push({
          rid: entry.rid, ssrc: entry.ssrc, active: entry.active, frameWidth: entry.frameWidth,
          frameHeight: entry.frameHeight, framesEncoded: entry.framesEncoded, framesSent: entry.framesSent,
          bytesSent: entry.bytesSent, targetBitrate: entry.targetBitrate,
          qualityLimitationReason: entry.qualityLimitationReason, encoderImplementation: entry.encoderImplementation,
          scalabilityMode: entry.scalabilityMode,
        });
      });
      return list.sort((a, b) => String(a.rid).localeCompare(String(b.rid)));
    };
    return {transportId: transport.transportId, pc};
  }

  /** Runs a PK request from a button and shows a refusal in the page. */
  async function pkRequest(method, params) {
    D.clearError();
    try {
      return await relay.request(method, params);
    } catch (e) {
      D.showError(e);
      return null;
    }
  }

  // ---- PK buttons -------------------------------------------------------------------------

  async function invite() {
    const peerRoom = el('invite-room').value.trim();
    const peerUser = el('invite-user').value.trim();
    if (!peerRoom || !peerUser) {
      D.showError({method: 'invite', code: 'input', message: 'enter the anchor and the room to invite'});
      return;
    }
    setPk('inviting', {roomId: peerRoom, userId: peerUser});
    // autoLink: the relay links both anchors when the invitee accepts, so nobody has to call
    // connectOtherRoom afterwards.
    const result = await pkRequest('invite', {roomId: peerRoom, userId: peerUser, localRoomId: room, autoLink: true});
    if (result) {
      outgoing.inviteId = result.inviteId;
    } else if (pkDemo.pkState === 'inviting') {
      setPk('idle', null);
    }
  }

  async function cancelInvite() {
    if (outgoing.inviteId) await pkRequest('cancelInvitation', {inviteId: outgoing.inviteId});
  }

  async function answerInvite(accept) {
    const inviteId = incoming.inviteId;
    if (!inviteId) return;
    const ok = await pkRequest(accept ? 'acceptInvitation' : 'rejectInvitation', {inviteId});
    if (ok === null) {
      // Already ended or unknown: the banner is stale.
      incoming.inviteId = null;
      if (pkDemo.pkState === 'invited') setPk('idle', null);
    }
  }

  async function hangUp() {
    await pkRequest('disconnectOtherRoom', {localRoomId: room});
  }

  // ---- PK events --------------------------------------------------------------------------

  function followPk() {
    relay.on('onInvitationReceived', (d) => {
      if (d.roomId !== room) return;
      if (incoming.inviteId !== null || pkDemo.pkState !== 'idle') {
        // One decision at a time: tell a second inviter we are busy instead of stacking banners.
        relay.request('rejectInvitation', {inviteId: d.inviteId, reason: 'busy'}).catch((e) => D.showError(e));
        return;
      }
      incoming.inviteId = d.inviteId;
      el('incoming-text').textContent =
        `Anchor ${d.fromUserId} of room ${d.fromRoomId} invites you to a PK` +
        (d.payload ? ` ("${d.payload}")` : '') + '.';
      setPk('invited', {roomId: d.fromRoomId, userId: d.fromUserId});
    });

    // Invitation states (docs/PROTOCOL.md): 2 received by remote, 3 accepted, 4 refused,
    // 5 canceled, 6 failure.
    relay.on('onInvitationStateChanged', (d) => {
      const ours = d.side === 'caller' ? d.inviteId === outgoing.inviteId : d.inviteId === incoming.inviteId;
      if (!ours) return;
      if (d.side === 'caller' && d.state === 2) return;    // still waiting for the answer
      if (d.side === 'callee') incoming.inviteId = null;
      if (d.side === 'caller') outgoing.inviteId = null;
      if (d.state === 3) {
        setPk('linking');
        return;
      }
      const why = {4: 'refused', 5: 'canceled', 6: 'failed'}[d.state] || `state ${d.state}`;
      lastOutcome = `invitation ${why}${d.reason ? ': ' + d.reason : ''}`;
      D.log(`invitation ${d.inviteId} ${lastOutcome}`);
      if (pkDemo.pkState !== 'linked') setPk('idle', null);
    });

    relay.on('onConnectOtherRoom', (d) => {
      if (d.roomId !== room) return;
      if (d.errorCode === 0) {
        setPk('linked', {roomId: d.peerRoomId, userId: d.peerUserId});
      } else {
        D.showError({method: 'onConnectOtherRoom', code: d.errorCode, message: d.message});
        if (pkDemo.pkState !== 'linked') setPk('idle', null);
      }
    });

    relay.on('onDisconnectOtherRoom', (d) => {
      if (d.roomId !== room) return;
      lastOutcome = `PK with ${d.peerUserId} ended: ${d.reason}`;
      D.log(lastOutcome);
      setPk('idle', null);
    });
  }

  // ---- start ------------------------------------------------------------------------------

  let relay = null;

  async function start() {
    if (!D.requireIdentity('anchor')) return;
    el('invite-btn').addEventListener('click', invite);
    el('cancel-btn').addEventListener('click', cancelInvite);
    el('accept-btn').addEventListener('click', () => answerInvite(true));
    el('reject-btn').addEventListener('click', () => answerInvite(false));
    el('hangup-btn').addEventListener('click', hangUp);
    renderPk();

    const grid = new D.TileGrid(el('remote-tiles'), 'No partner yet: invite an anchor of another room.');
    pkDemo.tiles = () => grid.ids();

    try {
      D.setState('camera');
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: true,
        video: {width: {ideal: 640}, height: {ideal: 360}, frameRate: {ideal: 30}},
      });
      el('preview').srcObject = stream;

      D.setState('token');
      const token = await D.fetchToken(tokenBase, room, user);

      D.setState('connecting');
      relay = new D.RelayClient(relayUrl);
      D.followClose(relay);
      await relay.connect();

      // Names for the relay's transport state events, filled in as the transports are made.
      const transportNames = {};
      D.followTransportStates(relay, transportNames);
      const receiver = new D.ReceiveTransport(relay, (userId, track, mediaStream) => grid.attach(userId, mediaStream));
      const receiveId = await receiver.open();
      transportNames[receiveId] = `receive transport ${receiveId}`;
      pkDemo.framesDecoded = () => receiver.framesDecoded();
      D.followRoom(relay, room, grid);
      D.followExit(relay, room);
      followPk();

      D.setState('joining');
      // The receive transport is the room's subscribeTransportId: the relay subscribes us to
      // everything published in the room, including a PK partner once the rooms are linked.
      await relay.request('joinRoom', {
        token, roomId: room, userId: user, role: 'anchor', visible: true,
        roomConfig: {subscribeTransportId: receiveId},
      });
      D.setState('joined');

      const published = await publish(relay, stream);
      transportNames[published.transportId] = `publish transport ${published.transportId}`;
    } catch (e) {
      D.showError(e);
      D.setState('error');
    }
  }

  start();
})();
