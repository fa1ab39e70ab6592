import StreamCore

/// Pacing a subscriber's queue: a transport whose estimate rests on transport-wide feedback sends
/// at most ``pacingFactor`` times its estimate, from a budget topped up as time passes and never
/// deeper than ``pacingBurstUs`` of it (nor less than ``pacingMinimumDepth``), as libwebrtc's
/// pacer does. A burst (a keyframe, a layer switch, a probe) then leaves in slices over the next
/// milliseconds instead of filling the bottleneck's queue at once. Unlike a sender's pacer, the
/// relay's does not choose the media rate (the publisher's layer does): it never drains slower
/// than ``pacingOverSendingRate`` times what the transport has been sending lately, so a stream
/// above the estimate (until a lower layer is chosen) is not held back into a standing queue,
/// only its bursts are spread. What the budget does not cover stays in the transport's send
/// queue, in order, gathered whole (it outlives the receive batch it may point into), and goes
/// on the timer; the datagrams a flush lets go still leave in one `sendmmsg` (or segmented)
/// call. A queue that fills while held goes out whole: pacing spreads at most one queue
/// (`media.sendBatchSize` datagrams). Transports without feedback (SRTP subscribers that did
/// not ask for transport-wide numbers, browsers that left the extension out) are not paced: an
/// estimate from receiver reports alone is too slow to trust with holding media back.
extension MediaCore {
    /// The pacing rate as a multiple of the estimate (libwebrtc's).
    static let pacingFactor = 2.5
    /// How much sending time the budget may save up, in microseconds.
    static let pacingBurstUs: Int64 = 5_000
    /// The least the budget may hold: two full datagrams, so a slow estimate still lets a
    /// packet through whole.
    static let pacingMinimumDepth = 3_000.0
    /// The least the pacer drains at, as a multiple of the transport's recent sending rate.
    static let pacingOverSendingRate = 1.25
    /// The window the sending rate is measured over, in microseconds.
    static let sendingRateWindowUs: Int64 = 100_000

    /// The rate a transport's queue drains at, in bits per second; nil when it is not paced.
    @inline(__always)
    func pacingRateBps(of transport: TransportState) -> Double? {
        guard transport.sentSequenceExtensionId != 0, let estimator = transport.estimator, estimator.hasTransportFeedback else { return nil }
        let elapsedUs = nowUs - transport.sendingWindowUs
        if elapsedUs >= Self.sendingRateWindowUs {
            let bytes = transport.report.bytesOut &- transport.sendingWindowBytes
            let windowBps = Double(bytes) * 8_000_000 / Double(elapsedUs)
            // A window long past (nothing sent for a while) counts as that window alone.
            transport.sendingRateBps = elapsedUs > 4 * Self.sendingRateWindowUs ? windowBps : (transport.sendingRateBps + windowBps) / 2
            transport.sendingWindowUs = nowUs
            transport.sendingWindowBytes = transport.report.bytesOut
        }
        return max(Self.pacingFactor * estimator.estimateBps, Self.pacingOverSendingRate * transport.sendingRateBps)
    }

    /// How many of the `count` queued datagrams the transport's budget lets go now (all of them
    /// when it is not paced), taking their bytes from the budget.
    func pacedCount(on transport: TransportState, count: Int) -> Int {
        guard let rateBps = pacingRateBps(of: transport) else { return count }
        let bytesPerUs = rateBps / 8_000_000
        let depth = max(Self.pacingMinimumDepth, bytesPerUs * Double(Self.pacingBurstUs))
        let elapsedUs = max(0, nowUs - transport.pacingUpdatedUs)
        transport.pacingUpdatedUs = nowUs
        var budget = min(depth, transport.pacingBudgetBytes + bytesPerUs * Double(elapsedUs))
        var allowed = 0
        while allowed < count {
            let bytes = Double(transport.sendLayout.preparedLength(at: allowed))
            guard bytes <= budget else { break }
            budget -= bytes
            allowed += 1
        }
        transport.pacingBudgetBytes = budget
        return allowed
    }

    /// Keeps the datagrams from `start` to `queued` for later: moved to the front of the queue,
    /// whole, and the transport listed for the timer.
    func holdBack(from start: Int, of queued: Int, on transport: TransportState) {
        transport.sendLayout.moveToFront(from: start, count: queued - start)
        transport.pending = queued - start
        counters.pacedPackets &+= UInt64(queued - start)
        if !transport.pacedListed {
            transport.pacedListed = true
            pacedTransports.append(transport)
        }
    }

    /// Sends what the budgets of the transports holding packets now allow.
    func flushPaced() {
        var index = 0
        while index < pacedTransports.count {
            let transport = pacedTransports[index]
            flush(transport)
            if transport.pending > 0 {
                index += 1
            } else {
                transport.pacedListed = false
                pacedTransports.remove(at: index)
            }
        }
    }
}
