/// The `t=` line. WebRTC sessions are unbounded, written `t=0 0`.
public struct SDPTiming: Sendable, Hashable {
    /// Start time in NTP seconds, 0 for "now".
    public var start: UInt64
    /// Stop time in NTP seconds, 0 for "unbounded".
    public var stop: UInt64

    /// Creates a timing line, by default the unbounded `0 0`.
    public init(start: UInt64 = 0, stop: UInt64 = 0) {
        self.start = start
        self.stop = stop
    }

    /// Parses the value of a `t=` line; nil unless it holds two numbers.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 2,
            let start = SDPText.unsigned(fields[0], as: UInt64.self),
            let stop = SDPText.unsigned(fields[1], as: UInt64.self)
        else { return nil }
        self.init(start: start, stop: stop)
    }

    /// The value written after `t=`.
    var sdpValue: String { "\(start) \(stop)" }
}
