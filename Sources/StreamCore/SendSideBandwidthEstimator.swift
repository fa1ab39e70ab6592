public import RTPWire

/// The bandwidth estimate of one subscriber transport, as the sender (the relay) works it out:
/// Google congestion control (draft-ietf-rmcat-gcc-02) over transport-wide feedback, in the
/// manner of libwebrtc's send-side estimator, pion's and mediasoup's.
///
/// - Every packet sent is logged with the transport-wide sequence number it carries
///   (``recordSent(bytes:sendUs:probeCluster:)``).
/// - Each feedback (``onTransportFeedback(_:in:nowUs:)``) matches arrivals to sends: the
///   delay-based detector (``TrendlineDelayDetector``) drives ``AIMDRateControl``, the share of
///   packets lost drives ``LossBasedRateControl``, and arrival times give the acknowledged rate
///   and the round-trip time. The estimate is the smaller of the two rates (and of a REMB, when
///   the receiver sends one).
/// - Probing finds headroom the traffic alone would not show: bursts above the estimate at the
///   start (3 and 6 times the start rate), again at twice the result while a probe keeps finding
///   room, and every ``Configuration/periodicProbeIntervalUs`` while the estimate is below the
///   transport's maximum. ``nextProbe(nowUs:)`` says when; the sender sends the burst and logs its
///   packets with the cluster's id.
/// - Subscribers without transport-wide feedback still get a loss-based estimate from their
///   receiver reports (``onReceiverReport(fractionLost:rttUs:nowUs:)``).
///
/// Everything is allocated in `init`; no call allocates. Time is an argument throughout, so tests
/// script it. One thread owns an estimator (not `Sendable`).
public final class SendSideBandwidthEstimator {
    /// The estimator's bounds and probing cadence.
    public struct Configuration: Sendable, Equatable {
        public var startBps: Double = 300_000
        public var minimumBps: Double = 30_000
        /// What the transport could use at most (its subscriptions' top layers): no probe goes
        /// higher and the estimate stays below.
        public var maximumBps: Double = 5_000_000
        public var periodicProbeIntervalUs: Int64 = 5_000_000
        /// A probe whose result reaches this share of its target probes again, higher.
        public var furtherProbeShare = 0.7
        /// Sent packets remembered for matching feedback (``SentPacketLog``); 1 for a transport
        /// that stamps no transport-wide numbers.
        public var sentPacketCapacity = SentPacketLog.defaultCapacity

        public init() {}
    }

    /// The estimate and what it came from, for stats.
    public struct Snapshot: Sendable, Equatable {
        public var estimateBps: Double
        public var delayBasedBps: Double
        public var lossBasedBps: Double
        public var acknowledgedBps: Double?
        public var usage: BandwidthUsage
        public var lossFraction: Double
        public var rttUs: Int64
        public var feedbacks: UInt64
        public var probeClusters: UInt64
        public var probeResults: UInt64
    }

    public let configuration: Configuration
    public let log: SentPacketLog
    var grouping = InterArrivalGrouping()
    var detector = TrendlineDelayDetector()
    var delayBased: AIMDRateControl
    var lossBased: LossBasedRateControl
    var acknowledged = AcknowledgedRateMeter()
    var probeResults = ProbeResultMeter()
    /// The smoothed round trip from feedback (send to feedback), and whether one was measured.
    public private(set) var rttUs: Int64 = 100_000
    var rttMeasured = false
    /// The receiver's REMB cap, when it sends one.
    var rembBps: Double?
    public private(set) var estimateBps: Double

    var started = false
    var nextClusterId: Int32 = 0
    var pendingProbes = InlineArray<2, Double>(repeating: 0)
    var pendingProbeCount = 0
    var lastProbeUs: Int64?
    /// The targets of the last few clusters, by id modulo their count.
    var probeTargets = InlineArray<4, Double>(repeating: 0)
    var feedbacks: UInt64 = 0
    var probeClusters: UInt64 = 0
    var probeResultCount: UInt64 = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        log = SentPacketLog(capacity: configuration.sentPacketCapacity)
        delayBased = AIMDRateControl(startBps: configuration.startBps, minimumBps: configuration.minimumBps, maximumBps: configuration.maximumBps)
        lossBased = LossBasedRateControl(startBps: configuration.startBps, minimumBps: configuration.minimumBps, maximumBps: configuration.maximumBps)
        estimateBps = delayBased.bitrateBps
    }

    /// Logs a packet of `bytes` sent at `sendUs` (part of probe cluster `probeCluster`, or -1)
    /// and returns the transport-wide sequence number to stamp on it. Every packet sent during a
    /// probe's burst, media as well as padding, carries the cluster's id: the burst's arrival
    /// rate is then the path's, not the padding's share of it.
    public func recordSent(bytes: Int, sendUs: Int64, probeCluster: Int32 = -1) -> UInt16 {
        if probeCluster >= 0 { probeResults.recordSent(cluster: probeCluster, bytes: bytes, sendUs: sendUs) }
        return log.recordSent(bytes: bytes, sendUs: sendUs, probeCluster: probeCluster)
    }

    /// Takes one transport-wide feedback, received at `nowUs`.
    public func onTransportFeedback(_ feedback: RTCPTransportFeedback, in buffer: UnsafeRawBufferPointer, nowUs: Int64) {
        feedbacks += 1
        var received = 0
        var lost = 0
        var lastAcknowledgedSendUs = Int64.min
        feedback.forEachPacket(in: buffer) { wire, arrivalUs in
            guard let slot = log.slot(ofWire: wire) else { return }
            let before = log.report(at: slot)
            let bytes = log.bytes(at: slot)
            let cluster = log.cluster(at: slot)
            guard let arrivalUs else {
                guard before == .none else { return }
                log.setReport(.lost, at: slot)
                lost += 1
                if cluster >= 0 { probeResults.recordReport(cluster: cluster, bytes: bytes, arrivalUs: nil) }
                return
            }
            guard before != .received else { return }
            log.setReport(.received, at: slot)
            received += 1
            if before == .lost, lost > 0 { lost -= 1 }
            let sendUs = log.sendUs(at: slot)
            lastAcknowledgedSendUs = max(lastAcknowledgedSendUs, sendUs)
            acknowledged.add(bytes: bytes, arrivalUs: arrivalUs)
            // A probe's burst is judged by its own rates; fed to the delay detector, the queue
            // it builds on purpose reads as congestion and every periodic probe would cut.
            if cluster >= 0 {
                probeResults.recordReport(cluster: cluster, bytes: bytes, arrivalUs: arrivalUs)
            } else if let delta = grouping.add(sendUs: sendUs, arrivalUs: arrivalUs) {
                detector.update(delta)
            }
        }
        if lastAcknowledgedSendUs > .min { measureRTT(nowUs - lastAcknowledgedSendUs) }
        delayBased.update(usage: detector.usage, acknowledgedBps: acknowledged.bitrateBps, rttUs: rttUs, nowUs: nowUs)
        lossBased.record(received: received, lost: lost, currentBps: estimateBps, rttUs: rttUs, nowUs: nowUs)
        while let result = probeResults.takeResult() { apply(result, nowUs: nowUs) }
        updateEstimate()
    }

    /// Whether transport-wide feedback has come: the estimate then rests on every packet's fate,
    /// not on receiver reports alone.
    public var hasTransportFeedback: Bool { feedbacks > 0 }

    /// Takes a receiver report's fraction lost (and the round trip it gives, when known). Loss
    /// counts only for a subscriber without transport-wide feedback: one with it reports every
    /// packet, and its receiver reports add nothing but the round trip.
    public func onReceiverReport(fractionLost: UInt8, rttUs: Int64?, nowUs: Int64) {
        if let rttUs, rttUs > 0 { measureRTT(rttUs) }
        guard feedbacks == 0 else { return }
        lossBased.apply(fraction: Double(fractionLost) / 256, currentBps: estimateBps, rttUs: self.rttUs, nowUs: nowUs)
        delayBased.set(bitrateBps: lossBased.bitrateBps, nowUs: nowUs)
        updateEstimate()
    }

    /// Takes the receiver's own estimate (REMB): the estimate stays under it.
    public func onReceiverEstimate(bitrateBps: Double) {
        rembBps = bitrateBps
        updateEstimate()
    }

    /// The probe cluster to send now, if one is due; the sender sends its packets at the
    /// cluster's rate and logs them with its id.
    public func nextProbe(nowUs: Int64) -> ProbeCluster? {
        let maximum = configuration.maximumBps
        if !started {
            started = true
            queueProbe(min(3 * configuration.startBps, maximum))
            queueProbe(min(6 * configuration.startBps, maximum))
        } else if pendingProbeCount == 0, estimateBps < 0.9 * maximum, detector.usage == .normal,
            nowUs - (lastProbeUs ?? nowUs) >= configuration.periodicProbeIntervalUs
        {
            queueProbe(min(2 * estimateBps, maximum))
        }
        guard pendingProbeCount > 0 else { return nil }
        let target = pendingProbes[0]
        pendingProbes[0] = pendingProbes[1]
        pendingProbeCount -= 1
        let cluster = ProbeCluster(id: nextClusterId, targetBps: target)
        probeTargets[Int(nextClusterId) % 4] = target
        nextClusterId = nextClusterId == .max ? 0 : nextClusterId + 1
        lastProbeUs = nowUs
        probeClusters += 1
        return cluster
    }

    /// The estimate and its inputs.
    public var snapshot: Snapshot {
        Snapshot(
            estimateBps: estimateBps, delayBasedBps: delayBased.bitrateBps, lossBasedBps: lossBased.bitrateBps,
            acknowledgedBps: acknowledged.bitrateBps, usage: detector.usage, lossFraction: lossBased.lossFraction, rttUs: rttUs,
            feedbacks: feedbacks, probeClusters: probeClusters, probeResults: probeResultCount)
    }

    func queueProbe(_ target: Double) {
        guard pendingProbeCount < 2, target > estimateBps else { return }
        pendingProbes[pendingProbeCount] = target
        pendingProbeCount += 1
    }

    func apply(_ result: ProbeResultMeter.Result, nowUs: Int64) {
        probeResultCount += 1
        if result.bitrateBps > delayBased.bitrateBps {
            delayBased.set(bitrateBps: result.bitrateBps, nowUs: nowUs)
            lossBased.raise(to: result.bitrateBps)
        }
        let target = probeTargets[Int(result.clusterId) % 4]
        if result.bitrateBps >= configuration.furtherProbeShare * target, target < configuration.maximumBps {
            queueProbe(min(2 * result.bitrateBps, configuration.maximumBps))
        }
    }

    func measureRTT(_ sample: Int64) {
        guard sample > 0 else { return }
        rttUs = rttMeasured ? (7 * rttUs + sample) / 8 : sample
        rttMeasured = true
    }

    func updateEstimate() {
        var estimate = min(delayBased.bitrateBps, lossBased.bitrateBps)
        if let rembBps { estimate = min(estimate, rembBps) }
        estimateBps = max(estimate, configuration.minimumBps)
    }
}
