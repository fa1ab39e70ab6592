/// Parameters of `answerTransportOffer`: the client's SDP answer to an `onTransportOffer`.
public struct AnswerTransportOfferParams: Sendable, Codable, Hashable {
    public var transportId: Int
    /// The `revision` of the offer being answered.
    public var revision: Int
    public var sdp: String
    public init(transportId: Int, revision: Int, sdp: String) {
        self.transportId = transportId
        self.revision = revision
        self.sdp = sdp
    }
}
