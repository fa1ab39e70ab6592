/// The control-channel methods, by wire name.
public enum Method: String, Sendable, CaseIterable {
    case joinRoom
    case leaveRoom
    case switchRole
    case setUserVisibility
    case updateToken
    case createTransport
    case connectTransport
    case closeTransport
    case answerTransportOffer
    case restartIce
    case publishStream
    case unpublishStream
    case subscribeStream
    case unsubscribeStream
    case setRemoteVideoStreamType
    case setSubscribeFallbackOption
    case setRemoteUserPriority
    case setRemoteVideoConfig
    case getStats
    case startForwardStreamToRooms
    case updateForwardStreamToRooms
    case stopForwardStreamToRooms
    case pauseForwardStreamToAllRooms
    case resumeForwardStreamToAllRooms
    case connectOtherRoom
    case disconnectOtherRoom
    case updateOtherRoomForwardMode
    case invite
    case cancelInvitation
    case acceptInvitation
    case rejectInvitation
    case sendRoomMessage
    case sendUserMessage
    case enableAudioPropertiesReport
}
