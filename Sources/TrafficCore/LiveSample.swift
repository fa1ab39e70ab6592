import Foundation

/// One second of a run, for the live line.
public struct LiveSample: Sendable, Hashable {
    public var elapsedSeconds: Double
    public var clients: Int
    public var streams: Int
    public var packetsIn: UInt64
    public var packetsOut: UInt64
    public var bytesIn: UInt64
    public var bytesOut: UInt64
    /// Over the interval: packets expected and lost.
    public var expected: UInt64
    public var lost: UInt64
    public var latency: LatencySummary
    /// Errors so far.
    public var errors: UInt64
    /// The interval's length in seconds.
    public var intervalSeconds: Double
    /// The busiest media thread of the tool over the interval (1 is a whole core), and whether
    /// the tool was the bound (see ``ToolBoundRule``).
    public var toolShare: Double = 0
    public var toolBound = false
    /// Put before the line: the generator's part when several run together (`--part`).
    public var label: String?

    public init(
        elapsedSeconds: Double, clients: Int, streams: Int, packetsIn: UInt64, packetsOut: UInt64, bytesIn: UInt64, bytesOut: UInt64, expected: UInt64,
        lost: UInt64, latency: LatencySummary, errors: UInt64, intervalSeconds: Double
    ) {
        self.elapsedSeconds = elapsedSeconds
        self.clients = clients
        self.streams = streams
        self.packetsIn = packetsIn
        self.packetsOut = packetsOut
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.expected = expected
        self.lost = lost
        self.latency = latency
        self.errors = errors
        self.intervalSeconds = intervalSeconds
    }

    /// The line printed each second, e.g.
    /// `[  5s] clients 12 streams 20 | pkt/s in 2391 out 1205 | Mbit/s in 25.10 out 12.60 | loss 0.000% | p50 0.41 p99 1.20 ms | errors 0 | tool 0.12`,
    /// ending in `TOOL-BOUND` when the tool was the bound over that second.
    public var line: String {
        let seconds = max(intervalSeconds, 0.001)
        let loss = expected == 0 ? 0 : Double(lost) * 100 / Double(expected)
        let text =
            String(
                format:
                    "[%4.0fs] clients %d streams %d | pkt/s in %.0f out %.0f | Mbit/s in %.2f out %.2f | loss %.3f%% | p50 %.2f p99 %.2f ms "
                        + "| errors %llu | tool %.2f",
                elapsedSeconds, clients, streams, Double(packetsIn) / seconds, Double(packetsOut) / seconds,
                Double(bytesIn) * 8 / seconds / 1e6, Double(bytesOut) * 8 / seconds / 1e6, loss, latency.p50, latency.p99, errors, toolShare)
            + (toolBound ? " TOOL-BOUND" : "")
        return label.map { "\($0) \(text)" } ?? text
    }
}
