/// The rate controller of Google congestion control (draft-ietf-rmcat-gcc-02, section 5.5),
/// driven by the delay detector's usage: on overuse it cuts to ``decreaseFactor`` of what the
/// receiver acknowledged, holds while queues drain, then increases: multiplicatively (8 % a
/// second) while the link's capacity is unknown, additively (about a packet per response time)
/// once a cut has shown where it lies.
///
/// The estimate never grows past 1.5 times the acknowledged rate plus 10 kbit/s: a sender that
/// sends less than its estimate learns nothing about the headroom above it (probing does).
public struct AIMDRateControl: Sendable {
    enum Phase: Sendable { case hold, increase, decrease }

    static let decreaseFactor = 0.85
    /// The multiplicative increase per second (updates come at least every second, so the
    /// compounding within one is left out).
    static let multiplicativeGainPerSecond = 0.08
    static let packetBits = 1200.0 * 8
    /// A cut whose acknowledged rate lies this many deviations off the capacity estimate starts over.
    static let capacityDeviations = 3.0

    public private(set) var bitrateBps: Double
    public let minimumBps: Double
    public let maximumBps: Double
    var phase: Phase = .hold
    var lastUpdateUs: Int64?
    /// The link capacity learned from cuts (the acknowledged rate at each): a moving mean and
    /// variance; nil while unknown.
    var capacityBps: Double?
    var capacityVariance = 0.0

    public init(startBps: Double, minimumBps: Double, maximumBps: Double) {
        self.minimumBps = minimumBps
        self.maximumBps = maximumBps
        bitrateBps = min(max(startBps, minimumBps), maximumBps)
    }

    /// Sets the estimate outright (a probe's result).
    public mutating func set(bitrateBps value: Double, nowUs: Int64) {
        bitrateBps = min(max(value, minimumBps), maximumBps)
        lastUpdateUs = nowUs
    }

    /// Applies one detector conclusion at `nowUs`, with the acknowledged rate when known and
    /// the round-trip time.
    @discardableResult
    public mutating func update(usage: BandwidthUsage, acknowledgedBps: Double?, rttUs: Int64, nowUs: Int64) -> Double {
        switch usage {
        case .normal: if phase == .hold { phase = .increase }
        case .overusing: if phase != .decrease { phase = .decrease }
        case .underusing: phase = .hold
        }
        let elapsedUs = lastUpdateUs.map { min(max(nowUs - $0, 0), 1_000_000) } ?? 0
        var next = bitrateBps
        switch phase {
        case .hold:
            break
        case .increase:
            if let acknowledged = acknowledgedBps, let capacity = capacityBps, acknowledged > capacity + Self.capacityDeviations * capacityDeviation {
                capacityBps = nil
            }
            let seconds = Double(elapsedUs) / 1_000_000
            if capacityBps != nil {
                let responseSeconds = Double(rttUs + 100_000) / 1_000_000
                next += max(1_000, Self.packetBits / responseSeconds) * seconds
            } else {
                next += max(bitrateBps * Self.multiplicativeGainPerSecond * seconds, 1_000 * seconds)
            }
            if let acknowledged = acknowledgedBps {
                next = min(next, max(bitrateBps, 1.5 * acknowledged + 10_000))
            }
        case .decrease:
            if let acknowledged = acknowledgedBps {
                next = min(Self.decreaseFactor * acknowledged, bitrateBps)
                learnCapacity(acknowledged)
            } else {
                next = Self.decreaseFactor * bitrateBps
            }
            phase = .hold
        }
        bitrateBps = min(max(next, minimumBps), maximumBps)
        lastUpdateUs = nowUs
        return bitrateBps
    }

    /// The capacity estimate's standard deviation, at least a tenth of the estimate.
    var capacityDeviation: Double {
        max(capacityVariance.squareRoot(), 0.1 * (capacityBps ?? 0))
    }

    mutating func learnCapacity(_ sample: Double) {
        guard let capacity = capacityBps, abs(sample - capacity) <= Self.capacityDeviations * capacityDeviation else {
            capacityBps = sample
            capacityVariance = 0
            return
        }
        let alpha = 0.05
        let mean = (1 - alpha) * capacity + alpha * sample
        capacityVariance = (1 - alpha) * capacityVariance + alpha * (sample - mean) * (sample - mean)
        capacityBps = mean
    }
}
