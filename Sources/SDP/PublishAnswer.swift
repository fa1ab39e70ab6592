/// The relay's answer to a publish offer, as SDP and as the structure the media plane needs.
public struct PublishAnswer: Sendable, Hashable {
    /// The answer to send to the client.
    public var sessionDescription: SessionDescription
    /// What was agreed.
    public var negotiated: NegotiatedPublish

    /// Creates the answer.
    public init(sessionDescription: SessionDescription, negotiated: NegotiatedPublish) {
        self.sessionDescription = sessionDescription
        self.negotiated = negotiated
    }

    /// The answer as SDP text.
    public var sdp: String { sessionDescription.serialized() }
}
