import NetworkImpairment
import Testing

/// The text form the command line and the Python tests use.
@Suite struct LinkImpairmentTextTests {
    @Test(arguments: [
        ("rate=300k", LinkImpairment(rateBitsPerSecond: 300_000)),
        ("rate=2.5M delay=50 jitter=5", LinkImpairment(rateBitsPerSecond: 2_500_000, delayMs: 50, jitterMs: 5)),
        ("rate=1000000 queue=20000 bucket=3000", LinkImpairment(rateBitsPerSecond: 1_000_000, burstBytes: 3000, queueBytes: 20_000)),
        ("rate=1M queue=100ms", LinkImpairment(rateBitsPerSecond: 1_000_000, queueBytes: 12_500)),
        ("loss=0.02 burst=0.01/5", LinkImpairment(lossProbability: 0.02, burstLossProbability: 0.01, meanBurstLength: 5)),
        ("rate=off", LinkImpairment()),
        ("", LinkImpairment()),
    ])
    func reads(text: String, expected: LinkImpairment) throws {
        #expect(try LinkImpairment(parsing: text) == expected)
    }

    @Test(arguments: ["rate=fast", "delay=-1", "loss=1.5", "burst=0.1", "burst=0.1/0", "queue=10ms", "colour=red", "rate"])
    func refuses(text: String) {
        #expect(throws: LinkImpairmentTextError.self) { try LinkImpairment(parsing: text) }
    }

    @Test func settingsKeepTheirValuesUnlessNamedOrReset() throws {
        var impairment = try LinkImpairment(parsing: "rate=1M delay=40")
        try impairment.apply("delay=10")
        #expect(impairment == LinkImpairment(rateBitsPerSecond: 1_000_000, delayMs: 10))
        try impairment.apply("reset loss=0.1")
        #expect(impairment == LinkImpairment(lossProbability: 0.1))
    }

    @Test func writtenTextReadsBack() throws {
        let impairment = LinkImpairment(
            rateBitsPerSecond: 3_000_000, burstBytes: 4000, queueBytes: 50_000, delayMs: 25, jitterMs: 3, lossProbability: 0.01,
            burstLossProbability: 0.002, meanBurstLength: 4)
        #expect(try LinkImpairment(parsing: impairment.text) == impairment)
    }

    @Test func theDefaultQueueHoldsThreeHundredMillisecondsAtTheRate() {
        #expect(LinkImpairment(rateBitsPerSecond: 1_000_000).effectiveQueueBytes == 37_500)
        #expect(LinkImpairment().effectiveQueueBytes == Int.max)
    }
}
