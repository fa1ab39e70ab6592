/*
 * audience.html?room=R&user=U: watches room R as an invisible audience member. Every
 * publisher of the room gets a tile: the room's anchor, and during a PK the partner anchor
 * the relay links in from the other room.
 */
'use strict';

(() => {
  const D = PKRelayDemo;
  const pkDemo = D.pkDemo;
  const {room, user, relayUrl, tokenBase} = D.settings();

  async function start() {
    if (!D.requireIdentity('viewer')) return;
    const grid = new D.TileGrid(document.getElementById('tiles'), 'Nobody publishes in this room yet.');
    pkDemo.tiles = () => grid.ids();

    try {
      D.setState('token');
      const token = await D.fetchToken(tokenBase, room, user);

      D.setState('connecting');
      const relay = new D.RelayClient(relayUrl);
      D.followClose(relay);
      await relay.connect();

      const transportNames = {};
      D.followTransportStates(relay, transportNames);
      const receiver = new D.ReceiveTransport(relay, (userId, track, stream) => grid.attach(userId, stream));
      const receiveId = await receiver.open();
      transportNames[receiveId] = `receive transport ${receiveId}`;
      pkDemo.framesDecoded = () => receiver.framesDecoded();
      receiver.pc.addEventListener('connectionstatechange', () => {
        if (receiver.pc.connectionState === 'connected') D.setState('receiving');
        if (receiver.pc.connectionState === 'failed') {
          D.showError({method: 'receive', code: 'ice', message: 'the browser could not connect the receive transport'});
          D.setState('error');
        }
      });
      D.followRoom(relay, room, grid);
      D.followExit(relay, room);

      D.setState('joining');
      // Invisible audience: nobody in the room is told about us, and the relay auto-subscribes
      // us to every stream of the room on the receive transport.
      await relay.request('joinRoom', {
        token, roomId: room, userId: user, role: 'audience', visible: false,
        roomConfig: {subscribeTransportId: receiveId},
      });
      if (pkDemo.state === 'joining') D.setState('joined');
    } catch (e) {
      D.showError(e);
      D.setState('error');
    }
  }

  start();
})();
