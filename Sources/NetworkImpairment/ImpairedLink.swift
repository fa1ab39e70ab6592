/// One direction of an impaired link as a value: datagrams and the time go in, and the link
/// says which are lost, which the full queue drops, and when each of the rest comes out.
/// It reads no clock, so tests script time; the socket shell (``ImpairmentRelay``) feeds it
/// real datagrams and the monotonic clock.
///
/// A datagram that enters is first tested for loss (random, then burst: a two-state model whose
/// bad state loses everything), then joins the bottleneck's FIFO queue unless its bytes would
/// overflow it. The head of the queue leaves when the token bucket holds its size; after
/// leaving it waits the delay, plus or minus the jitter, behind any datagram that left before
/// it, and is delivered.
public struct ImpairedLink<Packet> {
    /// The settings in force (``reconfigure(_:nowUs:)`` changes them).
    public private(set) var impairment: LinkImpairment
    /// What the link did so far.
    public private(set) var statistics = LinkStatistics()
    /// Datagrams waiting for the bottleneck, oldest first, from `queueHead` on.
    private var queue: [(packet: Packet, bytes: Int, enteredUs: Int64)] = []
    private var queueHead = 0
    /// Bytes waiting for the bottleneck.
    public private(set) var queuedBytes = 0
    /// Datagrams past the bottleneck, waiting out their delay, in delivery order.
    private var delayLine: [(packet: Packet, deliverUs: Int64)] = []
    private var delayHead = 0
    /// The bucket's tokens in bytes, as of `bucketUs`.
    private var tokens: Double
    private var bucketUs: Int64
    /// When the last datagram left the delay line (deliveries never overtake).
    private var lastDeliveryUs: Int64 = .min
    private var inLossBurst = false
    private var random: ImpairmentRandom

    /// A link with `impairment`, its bucket full at `nowUs`; `seed` fixes its losses and jitter.
    public init(_ impairment: LinkImpairment = .none, nowUs: Int64, seed: UInt64 = 1) {
        self.impairment = impairment
        tokens = Double(impairment.burstBytes)
        bucketUs = nowUs
        random = ImpairmentRandom(seed: seed)
    }

    /// Datagrams inside the link: queued and on their way.
    public var packetsInFlight: Int { queue.count - queueHead + delayLine.count - delayHead }

    /// Changes the settings from `nowUs` on: what the bottleneck carried until then went at the
    /// old rate, the queue's datagrams leave at the new one; the delay line keeps its times.
    public mutating func reconfigure(_ impairment: LinkImpairment, nowUs: Int64) {
        transmit(until: nowUs)
        refill(to: nowUs)
        self.impairment = impairment
        tokens = min(tokens, Double(impairment.burstBytes))
        if impairment.burstLossProbability == 0 { inLossBurst = false }
    }

    /// A datagram of `bytes` arrives at `nowUs`: lost, dropped at the queue, or queued (it
    /// comes out of a later ``advance(to:deliver:)``).
    public mutating func enter(_ packet: Packet, bytes: Int, nowUs: Int64) -> LinkVerdict {
        statistics.packetsIn += 1
        statistics.bytesIn += bytes
        // What left the bottleneck before this one arrived no longer counts against the queue.
        transmit(until: nowUs)
        if impairment.burstLossProbability > 0 {
            if inLossBurst {
                // A geometric burst: each further loss ends it with chance 1/length.
                if random.unit() < 1 / impairment.meanBurstLength { inLossBurst = false }
            } else if random.unit() < impairment.burstLossProbability {
                inLossBurst = true
            }
        }
        if inLossBurst {
            statistics.lostInBurst += 1
            return .lostInBurst
        }
        if impairment.lossProbability > 0, random.unit() < impairment.lossProbability {
            statistics.lostAtRandom += 1
            return .lostAtRandom
        }
        if impairment.rateBitsPerSecond > 0, queuedBytes + bytes > impairment.effectiveQueueBytes {
            statistics.droppedQueueFull += 1
            return .droppedQueueFull
        }
        queue.append((packet, bytes, nowUs))
        queuedBytes += bytes
        transmit(until: nowUs)
        return .queued
    }

    /// Moves the link on to `nowUs` and hands over, in order, every datagram due by then.
    public mutating func advance(to nowUs: Int64, deliver: (Packet) -> Void) {
        transmit(until: nowUs)
        while delayHead < delayLine.count, delayLine[delayHead].deliverUs <= nowUs {
            let entry = delayLine[delayHead]
            delayHead += 1
            deliver(entry.packet)
        }
        if delayHead > 64, delayHead * 2 > delayLine.count {
            delayLine.removeFirst(delayHead)
            delayHead = 0
        }
    }

    /// When something next happens (a datagram leaves the bottleneck or is delivered), or nil
    /// when the link is empty.
    public func nextEventUs() -> Int64? {
        var next: Int64?
        if delayHead < delayLine.count { next = delayLine[delayHead].deliverUs }
        if queueHead < queue.count, let departure = departureOfHead() {
            next = min(next ?? departure, departure)
        }
        return next
    }

    /// When the queue's head finishes leaving the bottleneck, given the bucket now.
    private func departureOfHead() -> Int64? {
        guard queueHead < queue.count else { return nil }
        let head = queue[queueHead]
        let rate = impairment.rateBitsPerSecond
        guard rate > 0 else { return max(bucketUs, head.enteredUs) }
        // Tokens accrue from the later of the bucket's time and the head's arrival.
        let startUs = max(bucketUs, head.enteredUs)
        let bytesPerUs = Double(rate) / 8 / 1_000_000
        let available = min(Double(impairment.burstBytes), tokens + Double(startUs - bucketUs) * bytesPerUs)
        let needed = Double(min(head.bytes, impairment.burstBytes)) - available
        if needed <= 0 { return startUs }
        return startUs + Int64((needed / bytesPerUs).rounded(.up))
    }

    /// Lets every queued datagram whose turn at the bottleneck ends by `nowUs` leave, into the
    /// delay line.
    private mutating func transmit(until nowUs: Int64) {
        while queueHead < queue.count, let departure = departureOfHead(), departure <= nowUs {
            let head = queue[queueHead]
            queueHead += 1
            refill(to: departure)
            // A datagram larger than the bucket empties it; the rate still holds over time,
            // since the next one waits for tokens from zero.
            tokens = max(0, tokens - Double(head.bytes))
            queuedBytes -= head.bytes
            statistics.packetsDelivered += 1
            statistics.bytesDelivered += head.bytes
            statistics.maximumQueueDelayUs = max(statistics.maximumQueueDelayUs, departure - head.enteredUs)
            statistics.totalQueueDelayUs += departure - head.enteredUs
            var delayUs = impairment.delayMs * 1000
            if impairment.jitterMs > 0 { delayUs += (random.unit() * 2 - 1) * impairment.jitterMs * 1000 }
            let deliverUs = max(lastDeliveryUs, departure + Int64(max(0, delayUs)))
            lastDeliveryUs = deliverUs
            delayLine.append((head.packet, deliverUs))
        }
        if queueHead > 64, queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    /// The bucket's tokens at `nowUs` (never beyond its depth).
    private mutating func refill(to nowUs: Int64) {
        guard nowUs > bucketUs else { return }
        let rate = impairment.rateBitsPerSecond
        if rate > 0 {
            tokens = min(Double(impairment.burstBytes), tokens + Double(nowUs - bucketUs) * Double(rate) / 8 / 1_000_000)
        } else {
            tokens = Double(impairment.burstBytes)
        }
        bucketUs = nowUs
    }
}

extension ImpairedLink: Sendable where Packet: Sendable {}
