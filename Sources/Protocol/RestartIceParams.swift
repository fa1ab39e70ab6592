/// Parameters of `restartIce`: an ICE restart of a WebRTC transport (RFC 8445 section 9), for a
/// client that changed networks. A publishing transport sends its new offer (`sdp`, made with
/// new ICE credentials) and gets the relay's answer; a receiving transport sends none, and the
/// relay sends a new `onTransportOffer` with its new credentials.
public struct RestartIceParams: Sendable, Codable, Hashable {
    public var transportId: Int
    public var sdp: String?

    public init(transportId: Int, sdp: String? = nil) {
        self.transportId = transportId
        self.sdp = sdp
    }
}
