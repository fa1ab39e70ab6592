/// Parameters of `enableAudioPropertiesReport`: turn periodic volume reports for a room on or off.
public struct EnableAudioPropertiesReportParams: Sendable, Codable, Hashable {
    public var roomId: String
    /// Milliseconds between reports: 0 turns reports off, otherwise at least 100 (default 300).
    public var intervalMs: Int?
    /// How many of the loudest users each report names, 1-16 (default 3).
    public var topN: Int?

    public init(roomId: String, intervalMs: Int? = nil, topN: Int? = nil) {
        self.roomId = roomId
        self.intervalMs = intervalMs
        self.topN = topN
    }
}
