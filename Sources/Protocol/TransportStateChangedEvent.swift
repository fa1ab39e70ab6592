/// Data of `onTransportStateChanged`: a WebRTC transport connected (ICE and DTLS done, media
/// can flow), failed, or was closed by the relay.
public struct TransportStateChangedEvent: Sendable, Codable, Hashable {
    public var transportId: Int
    /// `connected`, `failed` or `closed`.
    public var state: String
    /// For `failed`: 4016 (DTLS) or 4017 (ICE).
    public var errorCode: Int?
    /// A sentence for developers saying what happened.
    public var reason: String?
    public init(transportId: Int, state: String, errorCode: Int? = nil, reason: String? = nil) {
        self.transportId = transportId
        self.state = state
        self.errorCode = errorCode
        self.reason = reason
    }
}
