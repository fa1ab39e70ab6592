/// Data of `onTransportOffer`: the relay's SDP offer for a receiving WebRTC transport, sent
/// whenever the tracks delivered on it change. Answer with `answerTransportOffer`.
public struct TransportOfferEvent: Sendable, Codable, Hashable {
    public var transportId: Int
    /// Increases with every offer of the transport; echo it in the answer.
    public var revision: Int
    public var sdp: String
    public init(transportId: Int, revision: Int, sdp: String) {
        self.transportId = transportId
        self.revision = revision
        self.sdp = sdp
    }
}
