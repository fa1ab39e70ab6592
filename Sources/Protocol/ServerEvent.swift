/// An event the relay pushes to a client: `{"event": name, "data": {...}}`.
public enum ServerEvent: Sendable, Hashable {
    case roomStateChanged(RoomStateChangedEvent)
    case userJoined(UserJoinedEvent)
    case userLeave(UserLeaveEvent)
    case userPublishStream(UserPublishStreamEvent)
    case userUnpublishStream(UserUnpublishStreamEvent)
    case streamSubscribed(SubscribeStreamResult)
    case userVisibilityChanged(UserVisibilityChangedEvent)
    case switchRole(SwitchRoleEvent)
    case tokenWillExpire(TokenWillExpireEvent)
    case exitRoom(ExitRoomEvent)
    case forwardStreamStateChanged(ForwardStreamStateChangedEvent)
    case forwardStreamEvent(ForwardStreamEventEvent)
    case forwardStreamFirstKeyframe(ForwardFirstKeyframeEvent)
    case connectOtherRoom(ConnectOtherRoomEvent)
    case disconnectOtherRoom(DisconnectOtherRoomEvent)
    case invitationReceived(InvitationReceivedEvent)
    case invitationStateChanged(InvitationStateChangedEvent)
    case roomMessageReceived(MessageReceivedEvent)
    case userMessageReceived(MessageReceivedEvent)
    case remoteAudioPropertiesReport(AudioPropertiesReportEvent)
    case activeSpeaker(ActiveSpeakerEvent)
    case networkQuality(NetworkQualityEvent)
    case transportOffer(TransportOfferEvent)
    case transportStateChanged(TransportStateChangedEvent)
    case simulcastSubscribeFallback(SimulcastSubscribeFallbackEvent)
    case subscribedLayersChanged(SubscribedLayersChangedEvent)

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .roomStateChanged: "onRoomStateChanged"
        case .userJoined: "onUserJoined"
        case .userLeave: "onUserLeave"
        case .userPublishStream: "onUserPublishStream"
        case .userUnpublishStream: "onUserUnpublishStream"
        case .streamSubscribed: "onStreamSubscribed"
        case .userVisibilityChanged: "onUserVisibilityChanged"
        case .switchRole: "onSwitchRole"
        case .tokenWillExpire: "onTokenWillExpire"
        case .exitRoom: "onExitRoom"
        case .forwardStreamStateChanged: "onForwardStreamStateChanged"
        case .forwardStreamEvent: "onForwardStreamEvent"
        case .forwardStreamFirstKeyframe: "onForwardStreamFirstKeyframe"
        case .connectOtherRoom: "onConnectOtherRoom"
        case .disconnectOtherRoom: "onDisconnectOtherRoom"
        case .invitationReceived: "onInvitationReceived"
        case .invitationStateChanged: "onInvitationStateChanged"
        case .roomMessageReceived: "onRoomMessageReceived"
        case .userMessageReceived: "onUserMessageReceived"
        case .remoteAudioPropertiesReport: "onRemoteAudioPropertiesReport"
        case .activeSpeaker: "onActiveSpeaker"
        case .networkQuality: "onNetworkQuality"
        case .transportOffer: "onTransportOffer"
        case .transportStateChanged: "onTransportStateChanged"
        case .simulcastSubscribeFallback: "onSimulcastSubscribeFallback"
        case .subscribedLayersChanged: "onSubscribedLayersChanged"
        }
    }
}
