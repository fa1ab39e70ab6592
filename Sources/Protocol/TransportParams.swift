/// Parameters of requests that name only a transport (`closeTransport`).
public struct TransportParams: Sendable, Codable, Hashable {
    public var transportId: Int
    public init(transportId: Int) { self.transportId = transportId }
}
