/// The rate at which the receiver got a transport's packets, from the arrival times its
/// feedback reports: the bytes that arrived in windows of at least ``windowUs`` of arrival time.
/// A window faster than the rate so far is taken as it is, a slower one is averaged in: a cut
/// in the estimate starts from this rate, and right after a ramp (a probe's result) a lagging
/// average would cut far below what the path has just been seen to carry.
public struct AcknowledgedRateMeter: Sendable {
    public static let windowUs: Int64 = 250_000
    /// How much a new window's rate counts against the smoothed one.
    static let weight = 0.5

    public private(set) var bitrateBps: Double?
    var windowStartUs: Int64?
    var windowBytes = 0

    public init() {}

    /// Adds one packet of `bytes` that arrived at `arrivalUs` (the receiver's clock).
    public mutating func add(bytes: Int, arrivalUs: Int64) {
        guard let start = windowStartUs, arrivalUs >= start else {
            windowStartUs = arrivalUs
            windowBytes = bytes
            return
        }
        let span = arrivalUs - start
        if span >= Self.windowUs {
            let sample = Double(windowBytes) * 8 * 1_000_000 / Double(span)
            bitrateBps = bitrateBps.map { sample > $0 ? sample : (1 - Self.weight) * $0 + Self.weight * sample } ?? sample
            windowStartUs = arrivalUs
            windowBytes = bytes
            return
        }
        windowBytes += bytes
    }
}
