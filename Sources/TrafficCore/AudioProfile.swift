/// The Opus-like audio an anchor publishes: packets per second (50 = 20 ms frames) and payload size.
public struct AudioProfile: Sendable, Codable, Hashable {
    public var packetsPerSecond: Int = 50
    public var payloadBytes: Int = 80

    public init() {}
}
