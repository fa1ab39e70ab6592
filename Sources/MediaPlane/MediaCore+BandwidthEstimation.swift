import RTPWire
import StreamCore

/// The relay's estimate of each subscriber's downlink (``SendSideBandwidthEstimator``): every
/// RTP packet sent to a subscriber that negotiated transport-wide congestion control carries a
/// transport-wide sequence number, and the subscriber's feedback on those numbers drives a
/// delay- and loss-based estimate; a subscriber without it gets a loss-based estimate from its
/// receiver reports, capped by its REMB when it sends one.
extension MediaCore {
    /// Starts or stops stamping transport-wide numbers on what `transport` sends (`id` 0 stops).
    func setSentSequenceExtension(_ id: UInt8, on transport: TransportState) {
        let stamped = transport.sentSequenceExtensionId != 0
        transport.sentSequenceExtensionId = id
        guard id != 0 else {
            if stamped {
                stampingTransports.removeAll { $0 === transport }
                probingTransports.removeAll { $0 === transport }
                transport.probe = nil
            }
            return
        }
        if !stamped { stampingTransports.append(transport) }
        transport.rewritesExtensions = true
        // An estimate from receiver reports alone keeps no log of sends: replaced by one that does.
        if transport.estimator?.log.capacity != SentPacketLog.defaultCapacity {
            transport.estimator = Self.makeEstimator(stamps: true)
        }
    }

    /// Gives a transport that now carries a sink its estimator, when it has none yet.
    func ensureEstimator(on transport: TransportState) {
        if transport.estimator == nil { transport.estimator = Self.makeEstimator(stamps: transport.sentSequenceExtensionId != 0) }
    }

    /// An estimator for a subscriber transport; one that stamps nothing logs no sends.
    static func makeEstimator(stamps: Bool) -> SendSideBandwidthEstimator {
        var configuration = SendSideBandwidthEstimator.Configuration()
        if !stamps { configuration.sentPacketCapacity = 1 }
        return SendSideBandwidthEstimator(configuration: configuration)
    }

    /// The transport-wide number for a packet of `bytes` bytes sent now on `transport`, which
    /// stamps numbers (``TransportState/sentSequenceExtensionId`` is not 0).
    @inline(__always)
    func nextTransportWideSequence(bytes: Int, on transport: TransportState) -> UInt16 {
        guard let estimator = transport.estimatorReference else { return 0 }
        // Media sent while a probe goes belongs to it: the burst's rate is the path's then.
        let cluster = transport.probe?.cluster.id ?? -1
        return estimator._withUnsafeGuaranteedRef { $0.recordSent(bytes: bytes, sendUs: nowUs, probeCluster: cluster) }
    }

    /// The length of the RFC 8285 one-byte-form block a subscriber's packet carries: nothing,
    /// or the 4-byte header and one word for the audio level (2 bytes) or the transport-wide
    /// number (3 bytes), two words for both.
    @inline(__always)
    static func subscriberExtensionLength(writesLevel: Bool, writesNumber: Bool) -> Int {
        writesLevel ? (writesNumber ? 12 : 8) : (writesNumber ? 8 : 0)
    }

    /// Writes the extension block a subscriber's packet carries at `block`
    /// (``subscriberExtensionLength(writesLevel:writesNumber:)`` bytes): the audio level (when
    /// `audioLevel` is given) and the transport-wide number (when `transportWide` is), padded to
    /// whole words.
    @inline(__always)
    static func writeSubscriberExtensions(
        at block: UnsafeMutableRawPointer, audioLevelId: UInt8, audioLevel: (level: UInt8, voiceActivity: Bool)?, transportWideId: UInt8,
        transportWide: UInt16?
    ) {
        let writesLevel = audioLevel != nil && audioLevelId != 0
        let writesNumber = transportWide != nil && transportWideId != 0
        guard writesLevel || writesNumber else { return }
        let words = writesLevel && writesNumber ? 2 : 1
        block.storeBytes(of: 0xBE, toByteOffset: 0, as: UInt8.self)
        block.storeBytes(of: 0xDE, toByteOffset: 1, as: UInt8.self)
        block.storeBytes(of: 0, toByteOffset: 2, as: UInt8.self)
        block.storeBytes(of: UInt8(words), toByteOffset: 3, as: UInt8.self)
        // Padding bytes are zero (RFC 8285 section 4.2).
        block.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        if words == 2 { block.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self) }
        var offset = 4
        if writesLevel, let audioLevel {
            block.storeBytes(of: audioLevelId << 4, toByteOffset: offset, as: UInt8.self)
            block.storeBytes(of: (audioLevel.voiceActivity ? 0x80 : 0) | (audioLevel.level & 0x7F), toByteOffset: offset + 1, as: UInt8.self)
            offset += 2
        }
        if writesNumber, let transportWide {
            block.storeBytes(of: transportWideId << 4 | 1, toByteOffset: offset, as: UInt8.self)
            block.storeBytes(of: UInt8(truncatingIfNeeded: transportWide >> 8), toByteOffset: offset + 1, as: UInt8.self)
            block.storeBytes(of: UInt8(truncatingIfNeeded: transportWide), toByteOffset: offset + 2, as: UInt8.self)
        }
    }

    /// A subscriber's transport-wide feedback about what the relay sent it.
    func handleTransportWideFeedback(_ feedback: RTCPTransportFeedback, in packet: UnsafeRawBufferPointer, on transport: TransportState) {
        guard transport.sentSequenceExtensionId != 0, let estimator = transport.estimator else { return }
        counters.transportFeedbackReceived &+= 1
        estimator.onTransportFeedback(feedback, in: packet, nowUs: nowUs)
        let estimate = Int(estimator.estimateBps)
        if Double(estimate) < Double(transport.announcedEstimateBps) * Self.estimateDropAnnouncedBelow {
            transport.announcedEstimateBps = estimate
            events.yield(.estimateDropped(transportId: transport.id, estimateBps: estimate))
        }
    }

    /// The share of the last announced estimate below which a cut is announced at once.
    static let estimateDropAnnouncedBelow = 0.85

    /// A subscriber's REMB: the estimate stays under it.
    func handleReceiverEstimate(_ estimate: RTCPReceiverEstimatedMaximumBitrate, on transport: TransportState) {
        guard let estimator = transport.estimator else { return }
        estimator.onReceiverEstimate(bitrateBps: Double(min(estimate.bitrate, 1 << 53)))
    }

    /// The estimate and its inputs, for the transport's report.
    static func estimateReport(of estimator: SendSideBandwidthEstimator, stamps: Bool) -> BandwidthEstimateReport {
        let snapshot = estimator.snapshot
        return BandwidthEstimateReport(
            source: stamps && snapshot.feedbacks > 0 ? .transportWideFeedback : .receiverReports, estimateBps: Int(snapshot.estimateBps),
            delayBasedBps: Int(snapshot.delayBasedBps), lossBasedBps: Int(snapshot.lossBasedBps), acknowledgedBps: snapshot.acknowledgedBps.map { Int($0) },
            delaySignal: "\(snapshot.usage)", lossFraction: snapshot.lossFraction, roundTripTimeMs: Double(snapshot.rttUs) / 1000,
            feedbacks: snapshot.feedbacks)
    }
}
