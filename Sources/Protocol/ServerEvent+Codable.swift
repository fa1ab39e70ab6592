extension ServerEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case event
        case data
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .roomStateChanged(let data): try container.encode(data, forKey: .data)
        case .userJoined(let data): try container.encode(data, forKey: .data)
        case .userLeave(let data): try container.encode(data, forKey: .data)
        case .userPublishStream(let data): try container.encode(data, forKey: .data)
        case .userUnpublishStream(let data): try container.encode(data, forKey: .data)
        case .streamSubscribed(let data): try container.encode(data, forKey: .data)
        case .userVisibilityChanged(let data): try container.encode(data, forKey: .data)
        case .switchRole(let data): try container.encode(data, forKey: .data)
        case .tokenWillExpire(let data): try container.encode(data, forKey: .data)
        case .exitRoom(let data): try container.encode(data, forKey: .data)
        case .forwardStreamStateChanged(let data): try container.encode(data, forKey: .data)
        case .forwardStreamEvent(let data): try container.encode(data, forKey: .data)
        case .forwardStreamFirstKeyframe(let data): try container.encode(data, forKey: .data)
        case .connectOtherRoom(let data): try container.encode(data, forKey: .data)
        case .disconnectOtherRoom(let data): try container.encode(data, forKey: .data)
        case .invitationReceived(let data): try container.encode(data, forKey: .data)
        case .invitationStateChanged(let data): try container.encode(data, forKey: .data)
        case .roomMessageReceived(let data): try container.encode(data, forKey: .data)
        case .userMessageReceived(let data): try container.encode(data, forKey: .data)
        case .remoteAudioPropertiesReport(let data): try container.encode(data, forKey: .data)
        case .activeSpeaker(let data): try container.encode(data, forKey: .data)
        case .networkQuality(let data): try container.encode(data, forKey: .data)
        case .transportOffer(let data): try container.encode(data, forKey: .data)
        case .transportStateChanged(let data): try container.encode(data, forKey: .data)
        case .simulcastSubscribeFallback(let data): try container.encode(data, forKey: .data)
        case .subscribedLayersChanged(let data): try container.encode(data, forKey: .data)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .event)
        switch name {
        case "onRoomStateChanged": self = .roomStateChanged(try container.decode(RoomStateChangedEvent.self, forKey: .data))
        case "onUserJoined": self = .userJoined(try container.decode(UserJoinedEvent.self, forKey: .data))
        case "onUserLeave": self = .userLeave(try container.decode(UserLeaveEvent.self, forKey: .data))
        case "onUserPublishStream": self = .userPublishStream(try container.decode(UserPublishStreamEvent.self, forKey: .data))
        case "onUserUnpublishStream": self = .userUnpublishStream(try container.decode(UserUnpublishStreamEvent.self, forKey: .data))
        case "onStreamSubscribed": self = .streamSubscribed(try container.decode(SubscribeStreamResult.self, forKey: .data))
        case "onUserVisibilityChanged": self = .userVisibilityChanged(try container.decode(UserVisibilityChangedEvent.self, forKey: .data))
        case "onSwitchRole": self = .switchRole(try container.decode(SwitchRoleEvent.self, forKey: .data))
        case "onTokenWillExpire": self = .tokenWillExpire(try container.decode(TokenWillExpireEvent.self, forKey: .data))
        case "onExitRoom": self = .exitRoom(try container.decode(ExitRoomEvent.self, forKey: .data))
        case "onForwardStreamStateChanged": self = .forwardStreamStateChanged(try container.decode(ForwardStreamStateChangedEvent.self, forKey: .data))
        case "onForwardStreamEvent": self = .forwardStreamEvent(try container.decode(ForwardStreamEventEvent.self, forKey: .data))
        case "onForwardStreamFirstKeyframe": self = .forwardStreamFirstKeyframe(try container.decode(ForwardFirstKeyframeEvent.self, forKey: .data))
        case "onConnectOtherRoom": self = .connectOtherRoom(try container.decode(ConnectOtherRoomEvent.self, forKey: .data))
        case "onDisconnectOtherRoom": self = .disconnectOtherRoom(try container.decode(DisconnectOtherRoomEvent.self, forKey: .data))
        case "onInvitationReceived": self = .invitationReceived(try container.decode(InvitationReceivedEvent.self, forKey: .data))
        case "onInvitationStateChanged": self = .invitationStateChanged(try container.decode(InvitationStateChangedEvent.self, forKey: .data))
        case "onRoomMessageReceived": self = .roomMessageReceived(try container.decode(MessageReceivedEvent.self, forKey: .data))
        case "onUserMessageReceived": self = .userMessageReceived(try container.decode(MessageReceivedEvent.self, forKey: .data))
        case "onRemoteAudioPropertiesReport": self = .remoteAudioPropertiesReport(try container.decode(AudioPropertiesReportEvent.self, forKey: .data))
        case "onActiveSpeaker": self = .activeSpeaker(try container.decode(ActiveSpeakerEvent.self, forKey: .data))
        case "onNetworkQuality": self = .networkQuality(try container.decode(NetworkQualityEvent.self, forKey: .data))
        case "onTransportOffer": self = .transportOffer(try container.decode(TransportOfferEvent.self, forKey: .data))
        case "onTransportStateChanged": self = .transportStateChanged(try container.decode(TransportStateChangedEvent.self, forKey: .data))
        case "onSimulcastSubscribeFallback": self = .simulcastSubscribeFallback(try container.decode(SimulcastSubscribeFallbackEvent.self, forKey: .data))
        case "onSubscribedLayersChanged": self = .subscribedLayersChanged(try container.decode(SubscribedLayersChangedEvent.self, forKey: .data))
        default:
            throw DecodingError.dataCorruptedError(forKey: .event, in: container, debugDescription: "unknown event \(name)")
        }
    }
}
