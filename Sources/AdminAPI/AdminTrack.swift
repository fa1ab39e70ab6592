public import Protocol

/// One track of a published stream. OpenAPI schema `Track`.
public struct AdminTrack: Sendable, Codable, Hashable {
    public var kind: TrackKind
    public var ssrc: UInt32
    public var codec: String
    public var payloadType: Int

    /// Creates the value from its fields.
    public init(kind: TrackKind, ssrc: UInt32, codec: String, payloadType: Int) {
        self.kind = kind
        self.ssrc = ssrc
        self.codec = codec
        self.payloadType = payloadType
    }
}
