import Protocol

/// The parts of a request read before its params: the id to answer with.
struct RequestEnvelope: Decodable {
    var id: RequestID?
}
