/*
 * audience.html?room=R&user=U: watches room R as an invisible audience member. Every
 * publisher of the room gets a tile: the room's anchor, and during a PK the partner anchor
 * the relay links in from the other room.
 *
 * Publishers that send two encodings of their video (dual stream, e.g. anchor.html with
 * `simulcast=1`) can be watched in either: `&layer=small` starts with the small one for every
 * publisher (roomConfig.autoSubscribeVideoStreamType 1), and each tile's button switches that
 * publisher between big and small (setRemoteVideoStreamType). A tile shows the layer the relay
 * delivers and the resolution the browser decodes.
 */
'use strict';

(() => {
  const D = PKRelayDemo;
  const pkDemo = D.pkDemo;
  const {room, user, relayUrl, tokenBase} = D.settings();
  // Video stream types (docs/PROTOCOL.md): 0 big, 1 small.
  const BIG = 0;
  const SMALL = 1;
  const startLayer = new URLSearchParams(location.search).get('layer') === 'small' ? SMALL : BIG;
  const LAYER_NAMES = {[BIG]: 'big', [SMALL]: 'small'};

  // Per publisher: the layer asked for and the one the relay reports delivering. They differ
  // while a publisher sends no small video (the relay then delivers big).
  const wanted = new Map();
  const delivered = new Map();
  // Latest decoded resolution per publisher, refreshed with the tiles.
  let sizes = {};

  let relay = null;
  let grid = null;
  let receiver = null;

  /** Records what an onStreamSubscribed event or a setRemoteVideoStreamType result delivers. */
  function noteSubscription(data) {
    if (data.roomId !== room || (data.streamIndex && data.streamIndex !== 'main')) return;
    if (data.state !== undefined && data.state !== 0) return;
    const video = (data.tracks || []).find((t) => t.kind === 'video');
    if (video) delivered.set(data.userId, video.videoStreamType === SMALL ? SMALL : BIG);
    else delivered.delete(data.userId);
    renderTile(data.userId);
  }

  /** Asks the relay for a publisher's big (0) or small (1) video; resolves with the relay's result. */
  async function setLayer(userId, streamType) {
    if (streamType !== BIG && streamType !== SMALL) throw new Error(`layer must be 0 (big) or 1 (small), not ${streamType}`);
    if (!relay) throw new Error('not connected to the relay yet');
    const previous = wanted.get(userId);
    wanted.set(userId, streamType);
    renderTile(userId);
    try {
      const result = await relay.request('setRemoteVideoStreamType', {roomId: room, userId, streamType});
      noteSubscription({...result, roomId: room, userId});
      return result;
    } catch (e) {
      if (previous === undefined) wanted.delete(userId);
      else wanted.set(userId, previous);
      renderTile(userId);
      throw e;
    }
  }

  /** Adds the layer line and toggle button to a new tile. */
  function decorate(userId, tile) {
    const bar = document.createElement('div');
    bar.className = 'layer';
    const info = document.createElement('span');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'layer-btn';
    button.addEventListener('click', () => {
      D.clearError();
      const next = currentWanted(userId) === SMALL ? BIG : SMALL;
      setLayer(userId, next).catch((e) => D.showError(e));
    });
    bar.append(info, button);
    tile.element.append(bar);
    tile.layerInfo = info;
    tile.layerButton = button;
    renderInto(userId, tile);
  }

  function currentWanted(userId) {
    return wanted.has(userId) ? wanted.get(userId) : startLayer;
  }

  function renderTile(userId) {
    const tile = grid && grid.get(userId);
    if (tile && tile.layerInfo) renderInto(userId, tile);
  }

  function renderInto(userId, tile) {
    const layer = delivered.get(userId);
    const size = sizes[userId];
    const parts = [`layer: ${layer === undefined ? '–' : LAYER_NAMES[layer]}`];
    if (size) parts.push(`${size.width}x${size.height}`);
    if (layer !== undefined && layer !== currentWanted(userId)) parts.push(`(${LAYER_NAMES[currentWanted(userId)]} asked)`);
    tile.layerInfo.textContent = parts.join(' · ');
    tile.layerButton.textContent = currentWanted(userId) === SMALL ? 'Switch to big' : 'Switch to small';
  }

  /** Refreshes the decoded resolutions shown in the tiles; the size changes with the layer. */
  async function refreshSizes() {
    if (receiver && receiver.pc) {
      try {
        sizes = await receiver.frameSizes();
      } catch (e) {
        sizes = {};
      }
    }
    for (const userId of grid.ids()) renderTile(userId);
  }

  pkDemo.layers = () => Object.fromEntries(delivered);
  pkDemo.setLayer = (userId, streamType) => setLayer(userId, streamType);

  async function start() {
    if (!D.requireIdentity('viewer')) return;
    grid = new D.TileGrid(document.getElementById('tiles'), 'Nobody publishes in this room yet.',
      (userId, tile) => decorate(userId, tile));
    pkDemo.tiles = () => grid.ids();
    D.setStatusExtras(() => `video: ${LAYER_NAMES[startLayer]} by default`);
    setInterval(refreshSizes, 1000);

    try {
      D.setState('token');
      const token = await D.fetchToken(tokenBase, room, user);

      D.setState('connecting');
      relay = new D.RelayClient(relayUrl);
      D.followClose(relay);
      await relay.connect();

      const transportNames = {};
      D.followTransportStates(relay, transportNames);
      receiver = new D.ReceiveTransport(relay, (userId, track, stream) => grid.attach(userId, stream));
      const receiveId = await receiver.open();
      transportNames[receiveId] = `receive transport ${receiveId}`;
      pkDemo.framesDecoded = () => receiver.framesDecoded();
      pkDemo.frameSizes = () => receiver.frameSizes();
      receiver.pc.addEventListener('connectionstatechange', () => {
        if (receiver.pc.connectionState === 'connected') D.setState('receiving');
        if (receiver.pc.connectionState === 'failed') {
          D.showError({method: 'receive', code: 'ice', message: 'the browser could not connect the receive transport'});
          D.setState('error');
        }
      });
      D.followRoom(relay, room, grid);
      D.followExit(relay, room);
      relay.on('onStreamSubscribed', noteSubscription);
      relay.on('onUserLeave', (d) => {
        if (d.roomId !== room) return;
        delivered.delete(d.userId);
        wanted.delete(d.userId);
      });

      D.setState('joining');
      // Invisible audience: nobody in the room is told about us, and the relay auto-subscribes
      // us to every stream of the room on the receive transport, in the layer asked for.
      await relay.request('joinRoom', {
        token, roomId: room, userId: user, role: 'audience', visible: false,
        roomConfig: startLayer === SMALL
          ? {subscribeTransportId: receiveId, autoSubscribeVideoStreamType: SMALL}
          : {subscribeTransportId: receiveId},
      });
      if (pkDemo.state === 'joining') D.setState('joined');
    } catch (e) {
      D.showError(e);
      D.setState('error');
    }
  }

  start();
})();
