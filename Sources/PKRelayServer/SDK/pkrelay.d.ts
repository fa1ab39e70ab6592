/**
 * Types of the PKRelay web SDK (pkrelay.js). The protocol behind them is docs/PROTOCOL.md;
 * the guide and reference are docs/SDK.md.
 */

/** The SDK's version. */
export declare const VERSION: string;

// ---------------------------------------------------------------------------------------------
// Numbers of the protocol

/** Error codes of the relay (PROTOCOL.md section 6) and of the SDK (4901-4906, TRTC's -3326/-3327). */
export declare const ErrorCode: Readonly<{
  ParseError: -32700; InvalidRequest: -32600; MethodNotFound: -32601; InvalidParams: -32602; InternalError: -32603;
  MessageTooLarge: -32001; ShuttingDown: -32002;
  InvalidToken: -1000; NoPublishPermission: -1002; NoSubscribePermission: -1003; DuplicateLogin: -1004; KickedOut: -1006;
  TokenExpired: -1009; RoomDismissed: -1011; OverSubscribeLimit: -1070; OverPublishLimit: -1080;
  InvisibleCannotPublish: -2009; CallerIsAudience: -3330;
  NotInRoom: 4001; AlreadyInRoom: 4002; TransportNotFound: 4003; TransportState: 4004; NoMediaPort: 4005; Unsupported: 4006;
  StreamNotFound: 4007; TooManyTransports: 4008; VisibilityRefused: 4009; WrongState: 4010; ForwardNotStarted: 4011;
  ForwardTargetLimit: 4012; ForwardAlreadyStarted: 4013; MessageTooLong: 4014; NoForwardPermission: 4015;
  DTLSFailed: 4016; ICEFailed: 4017; SDPRejected: 4018; RateLimited: 4029; RoomOnAnotherNode: 4030; ClusterUnavailable: 4031; MoveToRoomNode: 4032;
  ForwardInvalidArgument: 1201; ForwardInvalidToken: 1202; ForwardResponse: 1203; ForwardRemoteKicked: 1204; ForwardNotSupport: 1205;
  LinkConnectTimeout: -3326; LinkDisconnectTimeout: -3327; LinkInvalidParameter: -3328; LinkLimitReached: -102032;
  RoomHasNoLink: -102042; UserStartedNoLink: -102043; TargetRoomNotFound: -102046; TargetRoomLinkLimit: -102047;
  TargetUserNotFound: -102048;
  InvitationInvalidArgument: 1; InvitationNotStarted: 2; InvitationAlreadyEnded: 3; InvitationAlreadyAccepted: 4;
  InvitationAlreadySent: 5;
  RequestTimeout: 4901; NotConnected: 4902; ConnectFailed: 4903; ReconnectFailed: 4904; MediaFailed: 4905;
  TokenProviderFailed: 4906;
}>;

/** Video stream types: 0 big, 1 small, 2 medium (the middle of three simulcast encodings). */
export declare const VideoStreamType: Readonly<{Big: 0; Small: 1; Medium: 2}>;
export declare const SubscribeFallbackOption: Readonly<{Disabled: 0; VideoStreamLow: 1; AudioOnly: 2}>;
export declare const RemoteUserPriority: Readonly<{Low: 0; Medium: 100; High: 200}>;
export declare const FallbackOrRecoverReason: Readonly<{
  Unknown: -1; SubscribeFallbackByBandwidth: 0; SubscribeRecoverByBandwidth: 2; SubscriberRequest: 100; PublisherChange: 101;
}>;
/** Media type mask: 1 audio, 2 video, 3 both. */
export declare const MediaType: Readonly<{Audio: 1; Video: 2; AudioAndVideo: 3}>;
/** `onUserUnpublishStream.reason`. */
export declare const UnpublishReason: Readonly<{
  Unpublish: 0; PublishFailed: 1; KeepLiveFailed: 2; ClientDisconnected: 3; Republish: 4; Other: 5; PrivilegeTokenExpired: 6;
}>;
/** `onUserLeave.reason`. */
export declare const LeaveReason: Readonly<{Quit: 0; Dropped: 1; SwitchToInvisible: 2; KickedByAdmin: 3}>;
/** `onExitRoom.reason`; 100 (RejoinFailed) is the SDK's own, with code ReconnectFailed. */
export declare const ExitRoomReason: Readonly<{Left: 0; Kicked: 1; RoomDismissed: 2; TokenExpired: 3; ServerShutdown: 4; RejoinFailed: 100}>;
/** Subscribe states. */
export declare const SubscribeState: Readonly<{Success: 0; FailedNotInRoom: 1; FailedStreamNotFound: 2; FailedOverLimit: 3}>;
/** Forward states. */
export declare const ForwardState: Readonly<{Idle: 0; Success: 1; Failure: 2}>;
/** Forward events. */
export declare const ForwardEvent: Readonly<{Disconnected: 0; Connected: 1; Interrupt: 2; DstRoomUpdated: 3; UnexpectedAPICall: 4}>;
/** Invitation states. */
export declare const InvitationState: Readonly<{
  Idle: 0; SentToRemote: 1; ReceivedByRemote: 2; Accepted: 3; Refused: 4; Canceled: 5; Failure: 6;
}>;
/** Network quality (TRTC scale). */
export declare const NetworkQuality: Readonly<{Unknown: 0; Excellent: 1; Good: 2; Poor: 3; Bad: 4; Vbad: 5; Down: 6}>;
/** States of the connection to the relay. */
export declare const ConnectionState: Readonly<{
  Disconnected: 'disconnected'; Connecting: 'connecting'; Connected: 'connected'; Reconnecting: 'reconnecting';
}>;

/** The names of every event the relay sends. */
export declare const RELAY_EVENTS: ReadonlyArray<keyof RelayEventMap>;
/** The names of the events the SDK adds. */
export declare const SDK_EVENTS: ReadonlyArray<keyof SDKEventMap>;
/** The simulcast encodings of `publish(stream, {simulcast: true})`, smallest first. */
export declare const DEFAULT_SIMULCAST_ENCODINGS: ReadonlyArray<RTCRtpEncodingParameters & {rid: string}>;
/** The three encodings of `publish(stream, {simulcast: 3})`, smallest first. */
export declare const THREE_LAYER_SIMULCAST_ENCODINGS: ReadonlyArray<RTCRtpEncodingParameters & {rid: string}>;

export type Role = 'anchor' | 'audience';
export type StreamIndex = 'main' | 'screen';
export type ConnectionStateValue = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

// ---------------------------------------------------------------------------------------------
// Errors

/** `PKRelayError.data`: for 4030 (RoomOnAnotherNode) the node that serves the room. */
export interface PKRelayErrorData {
  controlURL?: string;
  nodeId?: string;
  [key: string]: unknown;
}

/** An error of the relay (`code`, `message`, `data` for 4030 and 4032) or of the SDK (4901-4906). */
export declare class PKRelayError extends Error {
  constructor(code: number, message: string, method?: string, data?: PKRelayErrorData, cause?: unknown);
  readonly name: 'PKRelayError';
  /** The relay's error code, or one of the SDK's. */
  code: number;
  /** The request it answers. */
  method?: string;
  /** Details: for 4030 `{controlURL, nodeId}`. */
  data?: PKRelayErrorData;
  /** The error this one reports: for TokenProviderFailed, what the tokenProvider threw. */
  cause?: unknown;
}

// ---------------------------------------------------------------------------------------------
// Event data (PROTOCOL.md section 4)

export interface SubscribedTrack {
  kind: 'audio' | 'video'; ssrc: number; payloadType: number; codec: string; clockRate: number;
  channels?: number; parameters?: string; transportId: number; videoStreamType?: 0 | 1 | 2;
}
export interface StreamSubscription {
  roomId: string; userId: string; streamIndex: StreamIndex; state: number; tracks: SubscribedTrack[];
}
export interface ForwardStateInfo { roomId: string; state: 0 | 1 | 2; error: number; message?: string }
export interface ForwardResult { roomId: string; infos: ForwardStateInfo[] }
export interface LinkResult { roomId: string; peerRoomId: string; peerUserId: string; errorCode: number; message: string }
export interface QualityEntry { userId?: string; quality: number; lossRate?: number; jitterMs?: number; roundTripTimeMs?: number }
export interface Speaker { userId: string; streamIndex: StreamIndex; level: number; linearVolume: number; voiceActivity: boolean }
export interface MessageData { roomId: string; fromRoomId: string; userId: string; message?: string; binary?: string }

export interface RelayEventMap {
  onRoomStateChanged: {roomId: string; userId: string; state: number; joinType: 0 | 1};
  onUserJoined: {roomId: string; userId: string; role: Role; forwardedFrom?: string};
  onUserLeave: {roomId: string; userId: string; reason: number};
  onUserPublishStream: {roomId: string; userId: string; streamIndex: StreamIndex; mediaType: number};
  onUserUnpublishStream: {roomId: string; userId: string; streamIndex: StreamIndex; mediaType: number; reason: number};
  onStreamSubscribed: StreamSubscription;
  onUserVisibilityChanged: {roomId: string; visible: boolean; errorCode: number};
  onSwitchRole: {roomId: string; role: Role; errorCode: number};
  onTokenWillExpire: {roomId: string; expiresAt: number; remainingSeconds: number; privilege?: 'publish'};
  /**
   * `rejoinFailed` and `error` (the relay's refusal) are set by the SDK when a rejoin after a
   * reconnection was refused: reason 3 with code -1009 for an expired token, else reason 100
   * (RejoinFailed) with code 4904 (ReconnectFailed).
   */
  onExitRoom: {roomId: string; reason: number; code: number; message: string; rejoinFailed?: boolean; error?: PKRelayError};
  onForwardStreamStateChanged: {roomId: string; userId: string; infos: ForwardStateInfo[]};
  onForwardStreamEvent: {roomId: string; userId: string; infos: {roomId: string; event: number}[]};
  onForwardStreamFirstKeyframe: {roomId: string; userId: string; targetRoomId: string; elapsedMs: number; via: 'forward' | 'link'};
  onConnectOtherRoom: LinkResult;
  /**
   * `reason` `reconnectFailed` (SDK): a link the SDK could not restore after a reconnection;
   * `errorCode` is 0 as always, the refusal is in `error`.
   */
  onDisconnectOtherRoom: {roomId: string; peerRoomId: string; peerUserId: string; reason: string; errorCode: number; error?: PKRelayError};
  onInvitationReceived: {
    inviteId: string; roomId: string; fromRoomId: string; fromUserId: string; payload?: string; timeoutSeconds: number; autoLink: boolean;
  };
  onInvitationStateChanged: {
    inviteId: string; side: 'caller' | 'callee'; state: number; roomId: string; peerRoomId: string; peerUserId: string;
    reason?: string; payload?: string;
  };
  onRoomMessageReceived: MessageData;
  onUserMessageReceived: MessageData;
  onRemoteAudioPropertiesReport: {roomId: string; speakers: Speaker[]};
  onActiveSpeaker: {roomId: string; userId: string};
  onNetworkQuality: {roomId: string; local: QualityEntry; remotes: QualityEntry[]};
  onTransportOffer: {transportId: number; revision: number; sdp: string};
  onTransportStateChanged: {transportId: number; state: 'connected' | 'failed' | 'closed'; errorCode?: number; reason?: string};
  /** Which encodings of this client's dual-stream video anyone receives; the SDK turns the small one off and on by itself. */
  onSubscribedLayersChanged: {roomId: string; streamIndex: StreamIndex; bigSubscribed: boolean; smallSubscribed: boolean; mediumSubscribed?: boolean};
  /** The video a subscription delivers changed layer, paused (audio only) or resumed. */
  onSimulcastSubscribeFallback: {
    roomId: string; userId: string; streamIndex: StreamIndex; beforeVideoStreamType: 0 | 1 | 2; afterVideoStreamType: 0 | 1 | 2;
    beforeVideoEnabled: boolean; afterVideoEnabled: boolean; reason: -1 | 0 | 2 | 100 | 101; estimateBps?: number;
  };
}

/** Something a reconnection could not restore. */
export interface RestoreFailure {
  kind: 'room' | 'publication' | 'subscription' | 'videoStreamType' | 'audioPropertiesReport' | 'forward' | 'link';
  roomId: string; code: number; message: string;
  streamIndex?: StreamIndex; userId?: string; peerRoomId?: string; peerUserId?: string;
}

export interface SDKEventMap {
  /** The connection changed state; `attempt` and `delayMs` come with `reconnecting`, `error` with a final `disconnected`. */
  onConnectionStateChanged: {
    state: ConnectionStateValue; previous: ConnectionStateValue;
    reason: 'connect' | 'connected' | 'connectFailed' | 'redirect' | 'connectionLost' | 'serverShutdown' | 'reconnected'
      | 'reconnectFailed' | 'client' | string;
    attempt?: number; delayMs?: number; error?: PKRelayError; rooms?: string[];
  };
  /** A reconnection succeeded: the rooms rejoined and what could not be restored. */
  onReconnected: {attempts: number; durationMs: number; rooms: string[]; failures: RestoreFailure[]};
  /** A remote track arrived; `mediaStream` is the stable stream of that user and streamIndex. */
  onRemoteTrackAdded: {userId: string; streamIndex: StreamIndex; kind: 'audio' | 'video'; track: MediaStreamTrack; mediaStream: MediaStream};
  /** A remote track ended (unsubscribed, unpublished, or its transport closed). */
  onRemoteTrackRemoved: {userId: string; streamIndex: StreamIndex; kind: 'audio' | 'video'; track: MediaStreamTrack; mediaStream: MediaStream};
  /** A local publication's transport changed state. */
  onPublicationStateChanged: {roomId: string; streamIndex: StreamIndex; state: PublicationState; publication: LocalPublication};
  /** Background work failed (answering an offer, refreshing a token, republishing, an ICE restart, an app handler). */
  onError: {error: PKRelayError | Error; context: string; roomId?: string};
}

export type EventMap = RelayEventMap & SDKEventMap;
export type EventName = keyof EventMap;
/** The events a Room emits: those whose data names the room (not transport, connection or remote-track events). */
export type RoomEventName =
  | 'onRoomStateChanged' | 'onUserJoined' | 'onUserLeave' | 'onUserPublishStream' | 'onUserUnpublishStream'
  | 'onStreamSubscribed' | 'onUserVisibilityChanged' | 'onSwitchRole' | 'onTokenWillExpire' | 'onExitRoom'
  | 'onForwardStreamStateChanged' | 'onForwardStreamEvent' | 'onForwardStreamFirstKeyframe' | 'onConnectOtherRoom'
  | 'onDisconnectOtherRoom' | 'onInvitationReceived' | 'onInvitationStateChanged' | 'onRoomMessageReceived'
  | 'onUserMessageReceived' | 'onRemoteAudioPropertiesReport' | 'onActiveSpeaker' | 'onNetworkQuality'
  | 'onSimulcastSubscribeFallback' | 'onSubscribedLayersChanged' | 'onPublicationStateChanged' | 'onError';
export type RoomEventMap = Pick<EventMap, RoomEventName>;
export type PublicationState = 'new' | 'connecting' | 'connected' | 'failed' | 'republishing' | 'closed';

declare class Emitter<M> {
  /** Adds a handler; event names this emitter never emits throw a TypeError. Returns a function that removes it. */
  on<E extends keyof M>(event: E, handler: (data: M[E]) => void): () => void;
  /** Adds a handler for the next such event only. */
  once<E extends keyof M>(event: E, handler: (data: M[E]) => void): () => void;
  /** Removes a handler. */
  off<E extends keyof M>(event: E, handler: (data: M[E]) => void): void;
}

// ---------------------------------------------------------------------------------------------
// Options

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  now(): number;
}

export interface ReconnectOptions {
  /** Attempts before giving up (default 10). */
  maxAttempts?: number;
  /** Delay before the first attempt (default 500 ms), doubled per attempt, ±20 % jitter. */
  initialDelayMs?: number;
  /** Longest delay between attempts (default 10 000 ms). */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The relay's control WebSocket, e.g. `wss://relay.example.com/rtc`. */
  url: string;
  /** Called on onTokenWillExpire and when a rejoin finds the token expired; its token goes to updateToken. */
  tokenProvider?: (info: {roomId: string; userId: string; privilege?: 'publish'}) => string | Promise<string>;
  /** How long a request waits for its answer (default 10 000 ms). */
  requestTimeoutMs?: number;
  /** Reconnection after a dropped WebSocket or a failed receive transport; `false` turns it off. */
  reconnect?: false | ReconnectOptions;
  /** Cluster redirects (4030) a join, or one reconnection attempt, follows (default 2). */
  maxRedirects?: number;
  /** A logger for requests, events and decisions. */
  log?: (line: string) => void;
  /** Time source (tests). */
  clock?: Clock;
  /** Random source for the reconnection jitter (tests). */
  random?: () => number;
  /** WebSocket implementation (default the global one). */
  WebSocket?: unknown;
  /** RTCPeerConnection implementation (default the global one). */
  RTCPeerConnection?: unknown;
  /** MediaStream implementation (default the global one). */
  MediaStream?: unknown;
  /** ResizeObserver implementation for `observeRenderedSize` (default the global one). */
  ResizeObserver?: unknown;
}

/** `setRemoteVideoConfig` (Volcengine): the size a viewer shows a publisher's video at. */
export interface RemoteVideoConfig {
  /** Rendered width and height in device pixels, 0 to 16384 each; both 0 lift the ceiling. */
  width: number;
  height: number;
  /** Accepted for Volcengine's shape; changes nothing (it applies to SVC streams). */
  framerate?: number;
  streamIndex?: StreamIndex;
}

export interface JoinOptions {
  roomId: string;
  userId: string;
  /** A token for this room and user, minted by the app's room server. */
  token: string;
  /** Default `'anchor'`. */
  role?: Role;
  /** Default true; an audience usually joins invisible. */
  visible?: boolean;
  /** Receive everything published in the room (default true). */
  autoSubscribe?: boolean;
  autoSubscribeAudio?: boolean;
  autoSubscribeVideo?: boolean;
  /** 0 big (default), 1 small. */
  autoSubscribeVideoStreamType?: 0 | 1 | 2;
  autoPublish?: boolean;
}

export interface PublishOptions {
  streamIndex?: StreamIndex;
  /** `true` for DEFAULT_SIMULCAST_ENCODINGS, or encodings listed smallest first (each with a `rid`). */
  simulcast?: boolean | 3 | RTCRtpEncodingParameters[];
  /** With `simulcast: true`: the scalability mode of both encodings, e.g. `'L1T1'`. */
  scalabilityMode?: string;
}

export interface SubscribeOptions { streamIndex?: StreamIndex; mediaType?: 1 | 2 | 3; videoStreamType?: 0 | 1 | 2 }
export interface ForwardTarget { roomId: string; token: string }
export interface InviteOptions { payload?: string; timeoutSeconds?: number; autoLink?: boolean }
export interface ForwardModeOptions { muteAudio?: boolean; muteVideo?: boolean; muteSubStream?: boolean }

export interface RemoteVideoStats {
  userId: string; streamIndex: StreamIndex; active: boolean; framesDecoded: number; frameWidth?: number; frameHeight?: number;
  packetsReceived?: number; packetsLost?: number; keyFramesDecoded?: number; ssrc?: number;
  /** Feedback the browser sent for the stream: NACKs, PLIs and FIRs. */
  nackCount?: number; pliCount?: number; firCount?: number;
}

/** The relay's getStats result. */
export interface RelayStats {
  generatedAt: number;
  transports: Array<{
    transportId: number; port: number; remote?: string; remoteProtocol?: "udp" | "tcp"; packetsIn: number; bytesIn: number; packetsOut: number; bytesOut: number;
    /** The relay's estimate of this client's downlink, once the transport carries a subscription. */
    bandwidthEstimate?: {
      source: "transport_wide" | "receiver_reports"; estimateBps: number; delayBasedBps: number; lossBasedBps: number;
      acknowledgedBps?: number; delaySignal: "normal" | "overusing" | "underusing"; lossFraction: number; roundTripTimeMs: number; feedbacks: number;
    };
  }>;
  published: Array<Record<string, unknown>>;
  subscribed: Array<Record<string, unknown>>;
}

// ---------------------------------------------------------------------------------------------
// Classes

/** The control channel alone: requests with ids and timeouts, events, close detection. */
export declare class ControlChannel {
  constructor(options: {
    url: string; WebSocket: unknown; clock?: Clock; requestTimeoutMs?: number;
    onEvent?: (event: string, data: any) => void; onClose?: (info: {code?: number; reason: string}) => void;
    /** A request that had timed out was answered with success after all. */
    onLateAnswer?: (method: string, params: any, result: any) => void;
    log?: (...parts: unknown[]) => void;
  });
  readonly url: string;
  /** Whether the WebSocket is open. */
  isOpen: boolean;
  /** Requests sent and not answered yet. */
  readonly pendingCount: number;
  /** Opens the WebSocket. */
  open(timeoutMs?: number): Promise<void>;
  /** Closes it without reporting a drop. */
  close(): void;
  /** Sends a request; rejects with PKRelayError (the relay's code, RequestTimeout or NotConnected). */
  request<T = any>(method: string, params?: object, options?: {timeoutMs?: number; timeoutCode?: number}): Promise<T>;
}

/** One user's connection to a relay. */
export declare class PKRelayClient extends Emitter<EventMap> {
  constructor(options: ClientOptions);
  /** The control URL in use (after a cluster redirect, the node's). */
  url: string;
  /** The connection's userId, fixed by the first join. */
  userId: string | null;
  /** Joined rooms by roomId. */
  readonly rooms: Map<string, Room>;
  /** The connection's state. */
  connectionState: ConnectionStateValue;
  /** The relay's id of the receive transport (as in onTransportStateChanged), or null. */
  readonly receiveTransportId: number | null;
  /** The receive transport's RTCPeerConnection, or null. */
  readonly receivePeerConnection: RTCPeerConnection | null;
  /** Opens the control channel (joinRoom does it by itself). */
  connect(): Promise<void>;
  /** What the relay may do to this client's subscriptions on a weak downlink: 0 disabled, 1 small stream (default), 2 audio only. */
  setSubscribeFallbackOption(option: 0 | 1 | 2): Promise<void>;
  /** Joins a room, following a cluster redirect (4030). */
  joinRoom(options: JoinOptions): Promise<Room>;
  /** Sends any protocol method. */
  request<T = any>(method: string, params?: object, options?: {timeoutMs?: number; timeoutCode?: number}): Promise<T>;
  /** Accepts an invitation. */
  acceptInvitation(inviteId: string, options?: {payload?: string}): Promise<{}>;
  /** Refuses an invitation. */
  rejectInvitation(inviteId: string, options?: {reason?: 'busy' | 'active'; payload?: string}): Promise<{}>;
  /** Withdraws an invitation this client sent. */
  cancelInvitation(inviteId: string, options?: {payload?: string}): Promise<{}>;
  /** The relay's traffic figures for the connection. */
  getStats(): Promise<RelayStats>;
  /** The browser's inbound video statistics per remote stream. */
  getRemoteVideoStats(): Promise<RemoteVideoStats[]>;
  /** The stable MediaStream of a remote user's stream. */
  remoteMediaStream(userId: string, streamIndex?: StreamIndex): MediaStream;
  /** Leaves every joined room (leaveRoom, bounded by the request timeout) when connected, then closes the connection; no reconnection follows. */
  disconnect(): Promise<void>;
}

/** A room the client joined. Emits the events of this room. */
export declare class Room extends Emitter<RoomEventMap> {
  readonly client: PKRelayClient;
  readonly roomId: string;
  readonly userId: string;
  /** The token the SDK joins and rejoins with. */
  token: string;
  role: Role;
  visible: boolean;
  /** Unix seconds. */
  tokenExpiresAt: number;
  /** Visible users by userId. */
  readonly remoteUsers: Map<string, RemoteUser>;
  /** Local publications by streamIndex. */
  readonly publications: Map<StreamIndex, LocalPublication>;
  /** Leaves the room. */
  leave(): Promise<void>;
  /** Publishes a MediaStream (camera and microphone, or a screen). */
  publish(mediaStream: MediaStream, options?: PublishOptions): Promise<LocalPublication>;
  /** Stops publishing. */
  unpublish(publication?: LocalPublication | StreamIndex): Promise<void>;
  /** Subscribes to a user's stream. */
  subscribe(userId: string, options?: SubscribeOptions): Promise<StreamSubscription>;
  /** Stops receiving kinds of a user's stream. */
  unsubscribe(userId: string, options?: {streamIndex?: StreamIndex; mediaType?: 1 | 2 | 3}): Promise<void>;
  /** Chooses the big (0) or small (1) video of a dual-stream publisher. */
  setRemoteVideoStreamType(userId: string, streamType: 0 | 1 | 2, streamIndex?: StreamIndex): Promise<StreamSubscription>;
  /** How this subscriber ranks a publisher's video on a weak downlink (0 low, the default; 100 medium; 200 high). */
  setRemoteUserPriority(userId: string, priority: 0 | 100 | 200): Promise<void>;
  /** The size this viewer shows a publisher's video at: the relay sends no layer larger than the smallest that fills it. Remembered across reconnection. */
  setRemoteVideoConfig(userId: string, config: RemoteVideoConfig): Promise<void>;
  /** Keeps the relay told of the size a `<video>` element shows a publisher's video at, as it is resized; returns a function that stops and lifts the ceiling. */
  observeRenderedSize(userId: string, element: {clientWidth: number; clientHeight: number}, options?: {streamIndex?: StreamIndex}): () => void;
  /** Switches role. */
  switchRole(role: Role): Promise<void>;
  /** Turns the local user visible or invisible. */
  setUserVisibility(visible: boolean): Promise<void>;
  /** Replaces the room's token. */
  updateToken(token: string): Promise<void>;
  /** The relay's traffic figures for this room. */
  getStats(): Promise<RelayStats>;
  /** Forwards the local streams into other rooms. */
  startForwardStreamToRooms(targets: ForwardTarget[]): Promise<ForwardResult>;
  /** Replaces the forward's targets. */
  updateForwardStreamToRooms(targets: ForwardTarget[]): Promise<ForwardResult>;
  /** Stops every forward target. */
  stopForwardStreamToRooms(): Promise<ForwardResult>;
  /** Hides the forwarded user in every target room. */
  pauseForwardStreamToAllRooms(): Promise<ForwardResult>;
  /** Shows it again. */
  resumeForwardStreamToAllRooms(): Promise<ForwardResult>;
  /** Opens a PK link with anchor `userId` of room `roomId`. */
  connectOtherRoom(roomId: string, userId: string): Promise<LinkResult>;
  /** Ends this room's PK links. */
  disconnectOtherRoom(): Promise<{}>;
  /** Hides or shows kinds of the linked peer's streams in this room. */
  updateOtherRoomForwardMode(roomId: string, userId: string, mode?: ForwardModeOptions): Promise<{}>;
  /** Invites anchor `userId` of room `roomId` to a PK. */
  invite(roomId: string, userId: string, options?: InviteOptions): Promise<{inviteId: string}>;
  /** A message to everyone in the room. */
  sendRoomMessage(message: string | {binary: string}, options?: {toLinkedRooms?: boolean}): Promise<{}>;
  /** A message to one member of the room. */
  sendUserMessage(userId: string, message: string | {binary: string}): Promise<{}>;
  /** Volume reports and active-speaker changes. */
  enableAudioPropertiesReport(options?: {intervalMs?: number; topN?: number}): Promise<void>;
}

/** A visible user of a room. */
export declare class RemoteUser {
  readonly room: Room;
  readonly userId: string;
  role: Role;
  /** The room it is forwarded or linked from (a mirror). */
  forwardedFrom?: string;
  /** Published streams by streamIndex. */
  readonly streams: Map<StreamIndex, {streamIndex: StreamIndex; mediaType: number; subscription?: StreamSubscription}>;
  /** The MediaStream its tracks arrive in. */
  mediaStream(streamIndex?: StreamIndex): MediaStream;
}

/** A stream this client publishes. */
export declare class LocalPublication {
  readonly room: Room;
  readonly streamIndex: StreamIndex;
  readonly mediaStream: MediaStream;
  /** The video encodings (two with simulcast), or null. */
  readonly encodings: RTCRtpEncodingParameters[] | null;
  /** The relay transport; changes when the SDK publishes again. */
  transportId: number | null;
  /** The RTCPeerConnection of the transport. */
  pc: RTCPeerConnection | null;
  /** Media type mask the relay accepted. */
  mediaType: number;
  state: PublicationState;
  /** The browser's statistics of this publication. */
  getStats(): Promise<RTCStatsReport | Map<string, unknown>>;
  /** Stops publishing. */
  unpublish(): Promise<void>;
}

/** `new PKRelayClient(options)`. */
export declare function createClient(options: ClientOptions): PKRelayClient;
