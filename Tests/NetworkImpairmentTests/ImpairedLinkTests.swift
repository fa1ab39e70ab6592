import NetworkImpairment
import Testing

/// The link as a value on a scripted clock: what it delivers, when, and what it loses.
@Suite struct ImpairedLinkTests {
    /// Feeds `count` datagrams of `bytes`, `intervalUs` apart from `startUs`, and runs the link
    /// to `untilUs` in steps of `stepUs`; returns each delivered datagram's number and time.
    static func run(
        _ link: inout ImpairedLink<Int>, count: Int, bytes: Int, startUs: Int64 = 0, intervalUs: Int64, untilUs: Int64, stepUs: Int64 = 100
    ) -> (delivered: [(packet: Int, atUs: Int64)], verdicts: [LinkVerdict]) {
        var delivered: [(Int, Int64)] = []
        var verdicts: [LinkVerdict] = []
        var next = 0
        var now = startUs
        while now <= untilUs {
            while next < count, startUs + Int64(next) * intervalUs <= now {
                verdicts.append(link.enter(next, bytes: bytes, nowUs: startUs + Int64(next) * intervalUs))
                next += 1
            }
            link.advance(to: now) { delivered.append(($0, now)) }
            now += stepUs
        }
        return (delivered, verdicts)
    }

    @Test func anUnimpairedLinkDeliversEverythingAtOnceAndInOrder() {
        var link = ImpairedLink<Int>(nowUs: 0)
        let result = Self.run(&link, count: 50, bytes: 1200, intervalUs: 1000, untilUs: 60_000)
        #expect(result.delivered.map(\.packet) == Array(0..<50))
        for (packet, atUs) in result.delivered { #expect(atUs == Int64(packet) * 1000) }
        #expect(link.statistics.packetsDelivered == 50)
        #expect(link.statistics.maximumQueueDelayUs == 0)
    }

    @Test func aRateCapSpacesABurstAtTheRate() {
        // 800 kbit/s is 100 bytes per millisecond: a 1000-byte datagram every 10 ms, once the
        // bucket holds no more than one of them.
        var link = ImpairedLink<Int>(LinkImpairment(rateBitsPerSecond: 800_000, burstBytes: 1000, queueBytes: 100_000), nowUs: 0)
        let result = Self.run(&link, count: 20, bytes: 1000, intervalUs: 0, untilUs: 300_000, stepUs: 10)
        #expect(result.delivered.count == 20)
        // The first leaves at once (the bucket holds one datagram), each next one 10 ms later.
        for (index, delivery) in result.delivered.enumerated() {
            #expect(abs(delivery.atUs - Int64(index) * 10_000) <= 20, "datagram \(index) at \(delivery.atUs) µs")
        }
        #expect(link.statistics.maximumQueueDelayUs >= 189_000)
    }

    @Test func aFullQueueDropsTheTail() {
        var link = ImpairedLink<Int>(LinkImpairment(rateBitsPerSecond: 80_000, burstBytes: 1000, queueBytes: 5000), nowUs: 0)
        let result = Self.run(&link, count: 10, bytes: 1000, intervalUs: 0, untilUs: 1_000_000)
        // The first leaves at once on the bucket's tokens and five fit the queue behind it; the
        // rest are dropped as they arrive, the first ones kept.
        #expect(result.verdicts == Array(repeating: .queued, count: 6) + Array(repeating: .droppedQueueFull, count: 4))
        #expect(result.delivered.map(\.packet) == [0, 1, 2, 3, 4, 5])
        #expect(link.statistics.droppedQueueFull == 4)
    }

    @Test func theQueueEmptiesAtTheRateAndTakesNewArrivals() {
        var link = ImpairedLink<Int>(LinkImpairment(rateBitsPerSecond: 80_000, queueBytes: 3000), nowUs: 0)
        // 80 kbit/s carries 1000 bytes in 100 ms: a datagram every 100 ms always finds room.
        let result = Self.run(&link, count: 10, bytes: 1000, intervalUs: 100_000, untilUs: 1_200_000)
        #expect(result.verdicts.allSatisfy { $0 == .queued })
        #expect(result.delivered.count == 10)
    }

    @Test func delayAndJitterKeepOrderWithinBounds() {
        var link = ImpairedLink<Int>(LinkImpairment(delayMs: 50, jitterMs: 10), nowUs: 0, seed: 7)
        let result = Self.run(&link, count: 200, bytes: 200, intervalUs: 5000, untilUs: 1_200_000, stepUs: 50)
        #expect(result.delivered.map(\.packet) == Array(0..<200))
        var earliest = Int64.max
        var latest = Int64.min
        for (packet, atUs) in result.delivered {
            let delay = atUs - Int64(packet) * 5000
            earliest = min(earliest, delay)
            latest = max(latest, delay)
        }
        #expect(earliest >= 40_000)
        // In order: a datagram may wait behind a later-drawn one, never beyond the largest draw.
        #expect(latest <= 60_050)
        // Jitter varies the delay: not every datagram takes the same time.
        #expect(latest - earliest > 10_000)
    }

    @Test func randomLossTakesItsShare() {
        var link = ImpairedLink<Int>(LinkImpairment(lossProbability: 0.05), nowUs: 0, seed: 3)
        let result = Self.run(&link, count: 20_000, bytes: 100, intervalUs: 10, untilUs: 200_010, stepUs: 1000)
        let lost = result.verdicts.filter { $0 == .lostAtRandom }.count
        #expect(lost > 800 && lost < 1200, "lost \(lost) of 20000")
        #expect(result.delivered.count == 20_000 - lost)
        #expect(link.statistics.lostAtRandom == lost)
    }

    @Test func burstLossLosesRunsOfTheMeanLength() {
        var link = ImpairedLink<Int>(LinkImpairment(burstLossProbability: 0.01, meanBurstLength: 6), nowUs: 0, seed: 11)
        let result = Self.run(&link, count: 50_000, bytes: 100, intervalUs: 10, untilUs: 500_010, stepUs: 1000)
        var bursts: [Int] = []
        var current = 0
        for verdict in result.verdicts {
            if verdict == .lostInBurst {
                current += 1
            } else if current > 0 {
                bursts.append(current)
                current = 0
            }
        }
        let mean = Double(bursts.reduce(0, +)) / Double(bursts.count)
        #expect(bursts.count > 300, "\(bursts.count) bursts")
        #expect(mean > 5 && mean < 7, "mean burst \(mean)")
        #expect(bursts.contains { $0 >= 12 })
    }

    @Test func aLiftedCapDrainsTheQueueAtTheNewRate() {
        // 1000 bytes every 100 ms: by 250 ms three have left.
        var link = ImpairedLink<Int>(LinkImpairment(rateBitsPerSecond: 80_000, burstBytes: 1000, queueBytes: 100_000), nowUs: 0)
        for index in 0..<20 { _ = link.enter(index, bytes: 1000, nowUs: 0) }
        var delivered: [Int] = []
        link.advance(to: 250_000) { delivered.append($0) }
        #expect(delivered == [0, 1, 2])
        link.reconfigure(.none, nowUs: 250_000)
        link.advance(to: 250_000) { delivered.append($0) }
        #expect(delivered == Array(0..<20))
        #expect(link.nextEventUs() == nil)
    }

    @Test func nextEventIsTheNextDepartureOrDelivery() {
        var link = ImpairedLink<Int>(LinkImpairment(rateBitsPerSecond: 800_000, queueBytes: 100_000, delayMs: 5), nowUs: 0)
        #expect(link.nextEventUs() == nil)
        _ = link.enter(0, bytes: 1000, nowUs: 0)
        _ = link.enter(1, bytes: 1000, nowUs: 0)
        // The first left at once and arrives at 5 ms; the second leaves at 10 ms.
        #expect(link.nextEventUs() == 5000)
        var delivered: [Int] = []
        link.advance(to: 5000) { delivered.append($0) }
        #expect(delivered == [0])
        #expect(link.nextEventUs() == 10_000)
    }
}
