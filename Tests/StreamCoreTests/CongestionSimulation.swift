import NetworkImpairment
import RTPWire
import StreamCore

/// One subscriber transport on a scripted clock: the relay's side sends 1200-byte packets at the
/// estimate (a sender that always has more to send) and the probes the estimator asks for,
/// through the tests' impaired link (`ImpairedLink`: rate cap, tail-drop queue, delay); the
/// receiver's side records arrivals in PKRelay's own ``TransportFeedbackRecorder`` and sends its
/// feedback back over the same delay; the feedback is parsed by the real RTCP parser and given to
/// the ``SendSideBandwidthEstimator``.
final class CongestionSimulation {
    struct Sample {
        var timeUs: Int64
        var estimateBps: Double
        var queueDelayUs: Int64
    }

    static let packetBytes = 1200
    static let stepUs: Int64 = 1_000
    static let startUs: Int64 = 1_000_000
    /// The receiver's clock runs apart from the sender's: only differences may matter.
    static let receiverClockOffsetUs: Int64 = 987_654_321

    let estimator: SendSideBandwidthEstimator
    var link: ImpairedLink<UInt16>
    let recorder = TransportFeedbackRecorder()
    var nowUs = CongestionSimulation.startUs
    var budgetBits = 0.0
    var feedbacks: [(deliverUs: Int64, bytes: [UInt8])] = []
    var probe: (cluster: ProbeCluster, packetsLeft: Int, nextUs: Int64, intervalUs: Int64)?
    var samples: [Sample] = []
    var sent = 0
    var dropped = 0
    var probePackets = 0

    /// A link capped at `capacityBps` with a queue of 300 ms at that rate and `delayMs` each way.
    static func impairment(capacityBps: Int, delayMs: Double = 50) -> LinkImpairment {
        LinkImpairment(rateBitsPerSecond: capacityBps, queueBytes: capacityBps * 3 / 80, delayMs: delayMs)
    }

    init(configuration: SendSideBandwidthEstimator.Configuration, impairment: LinkImpairment) {
        estimator = SendSideBandwidthEstimator(configuration: configuration)
        link = ImpairedLink(impairment, nowUs: Self.startUs)
    }

    /// Changes the link from now on (a cap that starts or lifts).
    func reconfigure(_ impairment: LinkImpairment) {
        link.reconfigure(impairment, nowUs: nowUs)
    }

    /// Runs for `durationUs`, sampling every 100 ms.
    func run(forUs durationUs: Int64) throws {
        let end = nowUs + durationUs
        while nowUs < end {
            if !sendProbe() { sendMedia() }
            deliverArrivals(until: nowUs + Self.stepUs)
            try sendFeedback()
            try deliverFeedback()
            if nowUs % 100_000 == 0 {
                let queueDelay = link.impairment.rateBitsPerSecond > 0 ? Int64(link.queuedBytes) * 8_000_000 / Int64(link.impairment.rateBitsPerSecond) : 0
                samples.append(Sample(timeUs: nowUs, estimateBps: estimator.estimateBps, queueDelayUs: queueDelay))
            }
            nowUs += Self.stepUs
        }
    }

    /// The samples from `start` to `stop` seconds after the simulation began.
    func samples(fromSecond start: Double, toSecond stop: Double) -> [Sample] {
        samples.filter { $0.timeUs >= Self.startUs + Int64(start * 1_000_000) && $0.timeUs < Self.startUs + Int64(stop * 1_000_000) }
    }

    func transmit(sendUs: Int64, cluster: Int32) {
        let sequence = estimator.recordSent(bytes: Self.packetBytes, sendUs: sendUs, probeCluster: cluster)
        sent += 1
        if link.enter(sequence, bytes: Self.packetBytes, nowUs: sendUs) != .queued { dropped += 1 }
    }

    /// Media at the estimate. While a probe's burst goes the burst carries the media (as a
    /// pacer's does: every packet in the burst, media or padding, belongs to it), so its arrival
    /// rate is the path's, not a share of it.
    func sendMedia() {
        let packetBits = Double(Self.packetBytes * 8)
        budgetBits = min(budgetBits + estimator.estimateBps * Double(Self.stepUs) / 1_000_000, estimator.estimateBps * 0.01 + packetBits)
        while budgetBits >= packetBits {
            budgetBits -= packetBits
            transmit(sendUs: nowUs, cluster: -1)
        }
    }

    /// Sends the probe packets due in this step; whether a burst is under way.
    func sendProbe() -> Bool {
        if probe == nil, let cluster = estimator.nextProbe(nowUs: nowUs) {
            let packets = (cluster.bytes(packetBytes: Self.packetBytes) + Self.packetBytes - 1) / Self.packetBytes
            probe = (cluster, packets, nowUs, Int64(Double(Self.packetBytes * 8) / cluster.targetBps * 1_000_000))
        }
        guard probe != nil else { return false }
        while let current = probe, current.nextUs < nowUs + Self.stepUs {
            transmit(sendUs: current.nextUs, cluster: current.cluster.id)
            probePackets += 1
            probe = current.packetsLeft > 1 ? (current.cluster, current.packetsLeft - 1, current.nextUs + max(current.intervalUs, 1), current.intervalUs) : nil
        }
        budgetBits = 0
        return true
    }

    /// Hands every packet the link delivers before `limitUs` to the receiver, at its own time.
    func deliverArrivals(until limitUs: Int64) {
        while let next = link.nextEventUs(), next < limitUs {
            link.advance(to: next) { sequence in
                recorder.record(sequenceNumber: sequence, arrivalUs: next + Self.receiverClockOffsetUs, ssrc: 0x5151, bytes: Self.packetBytes)
            }
        }
    }

    func sendFeedback() throws {
        let receiverNowUs = nowUs + Self.receiverClockOffsetUs
        guard let due = recorder.feedbackDueUs(), due <= receiverNowUs else { return }
        repeat {
            var bytes = [UInt8](repeating: 0, count: 1500)
            guard let length = bytes.withUnsafeMutableBytes({ recorder.writeFeedback(senderSSRC: 1, into: $0, at: 0, nowUs: receiverNowUs) }) else { break }
            feedbacks.append((nowUs + Int64(link.impairment.delayMs * 1000), Array(bytes[0..<length])))
        } while recorder.hasUnreportedPackets
    }

    func deliverFeedback() throws {
        while let first = feedbacks.first, first.deliverUs <= nowUs {
            feedbacks.removeFirst()
            try first.bytes.withUnsafeBytes { buffer in
                var iterator = RTCPPacketIterator(buffer)
                while let view = iterator.next() {
                    guard let common = RTCPFeedback(view: view, in: buffer), let feedback = RTCPTransportFeedback(feedback: common, in: buffer) else {
                        throw SimulationError.unparsableFeedback
                    }
                    estimator.onTransportFeedback(feedback, in: buffer, nowUs: nowUs)
                }
            }
        }
    }

    enum SimulationError: Error { case unparsableFeedback }
}
