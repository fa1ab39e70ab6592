// Compiled (not run) by types.test.mjs against pkrelay.d.ts with tsc --strict: the declarations
// must type an app's ordinary use of the SDK, and refuse a misspelt event name.
import {PKRelayClient, ErrorCode, PKRelayError, Room, VideoStreamType, createClient} from '../../Sources/PKRelayServer/SDK/pkrelay';

export async function main(stream: MediaStream): Promise<void> {
  const client: PKRelayClient = createClient({url: 'ws://x/rtc', tokenProvider: async ({roomId}) => roomId});
  const room: Room = await client.joinRoom({roomId: 'a', userId: 'u', token: 't', role: 'audience', visible: false});
  room.on('onUserJoined', (d) => { const who: string = d.userId; const from: string | undefined = d.forwardedFrom; console.log(who, from); });
  client.on('onReconnected', (d) => d.failures.forEach((f) => f.code));
  client.on('onConnectionStateChanged', (d) => { if (d.state === 'reconnecting') console.log(d.attempt); });
  const pub = await room.publish(stream, {simulcast: true});
  const transport: number | null = pub.transportId;
  console.log(transport);
  await room.setRemoteVideoStreamType('b', VideoStreamType.Small);
  const r = await room.startForwardStreamToRooms([{roomId: 'c', token: 'x'}]);
  const state: 0 | 1 | 2 = r.infos[0].state;
  console.log(state);
  try {
    await room.connectOtherRoom('b', 'u2');
  } catch (e) {
    if (e instanceof PKRelayError && e.code === ErrorCode.LinkConnectTimeout) console.log('link timed out');
  }
  // @ts-expect-error: a typo in an event name does not compile
  client.on('onUserJoind', () => {});
  // @ts-expect-error: a client-only event is not one of a Room's
  room.on('onRemoteTrackAdded', () => {});
  room.on('onPublicationStateChanged', (d) => console.log(d.state));
  const syncClient = createClient({url: 'ws://x/rtc', tokenProvider: () => 'a cached token'});
  console.log(syncClient.url);
  try {
    await client.joinRoom({roomId: 'b', userId: 'u', token: 't'});
  } catch (e) {
    if (e instanceof PKRelayError && e.code === ErrorCode.RoomOnAnotherNode) {
      const next: string | undefined = e.data?.controlURL;
      console.log(next);
    }
  }
}
