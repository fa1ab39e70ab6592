import StreamCore
import Testing

/// The 0-6 quality scale from tables of synthetic figures.
@Suite struct NetworkQualityScorerTests {
    /// One row: a sample and the grade it must get.
    struct Row: Sendable, CustomStringConvertible {
        var name: String
        var sample: NetworkQualitySample
        var expected: Int
        var description: String { name }
    }

    static let rows: [Row] = [
        Row(name: "nothing ever arrived", sample: NetworkQualitySample(packets: 0, everReceived: false), expected: 0),
        Row(name: "clean", sample: NetworkQualitySample(packets: 100, jitterMs: 5, roundTripTimeMs: 20), expected: 1),
        Row(name: "clean without RTT", sample: NetworkQualitySample(packets: 100, jitterMs: 5), expected: 1),
        Row(name: "1.9 % loss", sample: NetworkQualitySample(packets: 100, fractionLost: 0.019), expected: 1),
        Row(name: "2 % loss", sample: NetworkQualitySample(packets: 100, fractionLost: 0.02), expected: 2),
        Row(name: "7 % loss", sample: NetworkQualitySample(packets: 100, fractionLost: 0.07), expected: 3),
        Row(name: "15 % loss", sample: NetworkQualitySample(packets: 100, fractionLost: 0.15), expected: 4),
        Row(name: "50 % loss", sample: NetworkQualitySample(packets: 100, fractionLost: 0.5), expected: 5),
        Row(name: "relay drops count as loss", sample: NetworkQualitySample(packets: 100, relayDropRate: 0.12), expected: 4),
        Row(name: "NACK rate counts as loss", sample: NetworkQualitySample(packets: 100, nackRate: 0.03), expected: 2),
        Row(name: "NACK rate above 1 is capped", sample: NetworkQualitySample(packets: 10, nackRate: 3), expected: 5),
        Row(name: "jitter 40 ms", sample: NetworkQualitySample(packets: 100, jitterMs: 40), expected: 2),
        Row(name: "jitter 150 ms", sample: NetworkQualitySample(packets: 100, jitterMs: 150), expected: 4),
        Row(name: "jitter 250 ms", sample: NetworkQualitySample(packets: 100, jitterMs: 250), expected: 5),
        Row(name: "RTT 150 ms", sample: NetworkQualitySample(packets: 100, roundTripTimeMs: 150), expected: 2),
        Row(name: "RTT 300 ms", sample: NetworkQualitySample(packets: 100, roundTripTimeMs: 300), expected: 3),
        Row(name: "RTT 900 ms", sample: NetworkQualitySample(packets: 100, roundTripTimeMs: 900), expected: 5),
        Row(name: "worst figure wins", sample: NetworkQualitySample(packets: 100, fractionLost: 0.01, jitterMs: 60, roundTripTimeMs: 150), expected: 3),
        Row(name: "idle 3.9 s is not down", sample: NetworkQualitySample(packets: 0, idleMs: 3900), expected: 1),
        Row(name: "idle 4 s is down", sample: NetworkQualitySample(packets: 0, idleMs: 4000), expected: 6),
        Row(name: "down beats unknown-free figures", sample: NetworkQualitySample(packets: 0, fractionLost: 0, idleMs: 10_000), expected: 6),
    ]

    @Test(arguments: rows)
    func scores(_ row: Row) {
        #expect(NetworkQualityScorer.score(row.sample) == row.expected)
    }

    @Test(arguments: [
        ([Int](), 0), ([0, 0], 0), ([1, 0], 1), ([0, 3, 2], 3), ([6, 1], 6), ([2, 2], 2),
    ])
    func worstIgnoresUnknown(_ grades: [Int], _ expected: Int) {
        #expect(NetworkQualityScorer.worst(grades) == expected)
    }

    @Test func effectiveLossIsTheWorstEvidence() {
        let sample = NetworkQualitySample(fractionLost: 0.01, relayDropRate: 0.04, nackRate: 0.02)
        #expect(sample.effectiveLoss == 0.04)
    }
}
