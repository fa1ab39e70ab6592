/*
 * audience.html?room=R&user=U: watches room R as an invisible audience member. Every publisher
 * of the room gets a tile: the room's anchor and, during a PK, the partner from the other room.
 * For dual-stream publishers (anchor.html with `simulcast=1`) `&layer=small` starts with the
 * small video, and each tile's button switches between big and small. The relay moves a tile to
 * the small video by itself when this viewer's downlink cannot carry the big one, and back;
 * `&fallback=0` turns that off and `&fallback=2` lets it pause video (audio only) below the small.
 */
import {PKRelayClient, VideoStreamType} from '../sdk/pkrelay.js';
import * as D from './demo.js';

const {pkDemo} = D;
const {room: roomId, user, relayUrl, tokenBase, query} = D.settings();
const {Big: BIG, Small: SMALL, Medium: MEDIUM} = VideoStreamType;
const startLayer = query.get('layer') === 'small' ? SMALL : BIG;
const LAYER_NAMES = {[BIG]: 'big', [SMALL]: 'small', [MEDIUM]: 'medium'};
const fallbackOption = query.has('fallback') ? Number(query.get('fallback')) : null;

// Per publisher: the layer asked for, and the one the relay reports delivering (big while a
// publisher sends no small video).
const wanted = new Map();
const delivered = new Map();
// Publishers whose video the relay paused for this viewer's downlink (audio only).
const paused = new Set();
let sizes = {};
let room = null;
let grid = null;

/** Records the layer an onStreamSubscribed event or a setRemoteVideoStreamType result delivers. */
function noteSubscription(d) {
  if ((d.streamIndex && d.streamIndex !== 'main') || (d.state !== undefined && d.state !== 0)) return;
  const video = (d.tracks || []).find((t) => t.kind === 'video');
  if (video) delivered.set(d.userId, video.videoStreamType === undefined ? BIG : video.videoStreamType);
  else delivered.delete(d.userId);
  render(d.userId);
}

async function setLayer(userId, streamType) {
  if (streamType !== BIG && streamType !== SMALL) throw new Error(`layer must be 0 (big) or 1 (small), not ${streamType}`);
  const previous = wanted.get(userId);
  wanted.set(userId, streamType);
  render(userId);
  try {
    const result = await room.setRemoteVideoStreamType(userId, streamType);
    noteSubscription({...result, userId});
    return result;
  } catch (e) {
    if (previous === undefined) wanted.delete(userId);
    else wanted.set(userId, previous);
    render(userId);
    throw e;
  }
}

const currentWanted = (userId) => (wanted.has(userId) ? wanted.get(userId) : startLayer);

/** Adds the layer line and the big/small button to a new tile. */
function decorate(userId, tile) {
  const bar = Object.assign(document.createElement('div'), {className: 'layer'});
  tile.layerInfo = document.createElement('span');
  tile.layerButton = Object.assign(document.createElement('button'), {type: 'button', className: 'layer-btn'});
  tile.layerButton.addEventListener('click', () => {
    D.clearError();
    setLayer(userId, currentWanted(userId) === SMALL ? BIG : SMALL).catch((e) => D.showError(e));
  });
  bar.append(tile.layerInfo, tile.layerButton);
  tile.element.append(bar);
  render(userId, tile);
}

function render(userId, tile = grid && grid.get(userId)) {
  if (!tile || !tile.layerInfo) return;
  const layer = delivered.get(userId);
  const parts = [`layer: ${layer === undefined ? '–' : LAYER_NAMES[layer]}`];
  if (sizes[userId]) parts.push(`${sizes[userId].width}x${sizes[userId].height}`);
  if (paused.has(userId)) parts.push('video paused: weak downlink');
  if (layer !== undefined && layer !== currentWanted(userId)) parts.push(`(${LAYER_NAMES[currentWanted(userId)]} asked)`);
  tile.layerInfo.textContent = parts.join(' · ');
  tile.layerButton.textContent = currentWanted(userId) === SMALL ? 'Switch to big' : 'Switch to small';
}

pkDemo.layers = () => Object.fromEntries(delivered);
/** Every onSimulcastSubscribeFallback, with the page's time of arrival (ms). */
pkDemo.fallbacks = [];
pkDemo.setLayer = (userId, streamType) => setLayer(userId, streamType);

async function start() {
  if (!D.requireIdentity('viewer')) return;
  D.setStatusExtras(() => `video: ${LAYER_NAMES[startLayer]} by default`);
  try {
    D.setState('token');
    const token = await D.fetchToken(tokenBase, roomId, user);

    D.setState('joining');
    const client = new PKRelayClient({url: relayUrl, tokenProvider: () => D.fetchToken(tokenBase, roomId, user), log: D.log});
    D.follow(client, () => {
      const pc = client.receivePeerConnection;
      D.setState(pc && pc.connectionState === 'connected' ? 'receiving' : 'joined');
    });
    D.followVideoStats(client);
    client.on('onTransportStateChanged', (d) => {
      if (d.state === 'connected' && d.transportId === client.receiveTransportId) D.setState('receiving');
    });
    client.on('onStreamSubscribed', noteSubscription);
    client.on('onSimulcastSubscribeFallback', (d) => {
      pkDemo.fallbacks.push({...d, at: Date.now()});
      if (d.afterVideoEnabled) paused.delete(d.userId);
      else paused.add(d.userId);
      D.log(`${d.userId}: ${LAYER_NAMES[d.beforeVideoStreamType]}${d.beforeVideoEnabled ? '' : ' (paused)'} -> `
        + `${LAYER_NAMES[d.afterVideoStreamType]}${d.afterVideoEnabled ? '' : ' (paused)'}, reason ${d.reason}`);
      render(d.userId);
    });
    if (fallbackOption !== null) await client.setSubscribeFallbackOption(fallbackOption);
    // Invisible audience: nobody is told about us, and the relay sends us every stream of the
    // room (a PK partner included) in the layer asked for.
    room = await client.joinRoom({
      roomId, userId: user, token, role: 'audience', visible: false, autoSubscribeVideoStreamType: startLayer,
    });
    if (pkDemo.state === 'joining') D.setState('joined');
    grid = new D.TileGrid(room, document.getElementById('tiles'), 'Nobody publishes in this room yet.', decorate);
    pkDemo.tiles = () => grid.ids();
    pkDemo.firstFrames = () => grid.firstFrames();
    room.on('onUserLeave', (d) => {
      delivered.delete(d.userId);
      wanted.delete(d.userId);
    });
    D.followExit(room);
    setInterval(async () => {
      sizes = await pkDemo.frameSizes().catch(() => ({}));
      for (const userId of grid.ids()) render(userId);
    }, 1000);
  } catch (e) {
    D.showError(e);
    D.setState('error');
  }
}

start();
