import Protocol

/// The parts of an incoming message that tell responses from events.
struct InboundEnvelope: Decodable {
    var id: RequestID?
    var event: String?
    var error: RelayError?
    var result: IgnoredValue?

    /// Decodes anything and keeps nothing; only its presence matters.
    struct IgnoredValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
