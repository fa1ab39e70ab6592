import RTPWire
import SecureTransport

@testable import MediaPlane

/// The relay's own media core with one VP8 publisher on a plain transport and N subscribers on
/// SRTP transports (or plain ones), every sink bound and past its first keyframe: what each
/// received packet costs is `handleDatagram` as the data-plane thread runs it, with the packet
/// in a 32-slot receive batch as `recvmmsg` leaves it, so plain subscribers take their payloads
/// from there as they do in the relay.
public final class CoreFanOut: @unchecked Sendable {
    // Used by one benchmark at a time, on one thread.
    public let core: MediaCore
    public let output = DiscardingOutput()
    let publisher: TransportState
    let publisherAddress = PeerEndpoint(ip: 0x7F00_0001, port: 5000)
    public let template: UnsafeMutableRawBufferPointer
    /// The receive batch: one 2 KiB slot per packet of a 32-packet batch.
    let receiveBuffer: UnsafeMutableRawPointer
    let length: Int
    /// Every other packet is this many bytes shorter (0: all equal).
    let shorterEveryOther: Int
    /// Seals each packet as an SRTP publisher would, before the core opens it; nil for a plain publisher.
    let publisherSender: SRTPSession?
    var sequence: UInt16 = 1000
    /// Whether packets carry a transport-wide sequence number (an 8-byte extension block before
    /// the payload), and whether the publisher's transport records them for feedback.
    let carriesTransportSequence: Bool
    /// The clock in microseconds, moved on by ``microsecondsPerPacket`` per packet when the
    /// core's timers run every batch (0: the clock stands and no timer runs).
    var nowUs: Int64 = 1_000_000
    let microsecondsPerPacket: Int64
    public static let ssrc: UInt32 = 0x1234_5678
    /// The header-extension id of the transport-wide sequence number.
    static let transportSequenceId: UInt8 = 3
    /// Where the VP8 payload descriptor starts.
    let payloadOffset: Int

    /// - Parameters:
    ///   - segmentPadding: `media.gsoPadding` with GSO on (0: GSO off, as by default); with
    ///     `shorterEveryOther`, every other packet is shorter and padded to its predecessor's size.
    ///   - retransmissionBudgetPercent: the subscribers' retransmission budget per 100 bytes of
    ///     their stream (nil: the default).
    ///   - publisherProfile: The publisher's SRTP profile (nil: plain RTP): each packet is sealed
    ///     in the receive batch before the core gets it, and the core opens it.
    ///   - transportSequence: packets carry a transport-wide sequence number; with
    ///     `recordsArrivals` the publisher's transport records them and sends feedback on its timer.
    ///   - microsecondsPerPacket: the time between packets; when not 0 the clock moves on by it
    ///     per packet and the core's timers run after every batch of 32, as the shell runs them.
    ///   - webRTCSubscribers: subscribers are set up as WebRTC ones (their header extensions
    ///     rewritten); with `stampsTransportWide` each packet to them carries a transport-wide
    ///     number their estimator logs.
    public init(
        subscribers: Int, profile: SRTPProfile?, packetLength: Int = 1200, segmentPadding: Int = 0, shorterEveryOther: Int = 0,
        retransmissionBudgetPercent: Int? = nil, publisherProfile: SRTPProfile? = nil, transportSequence: Bool = false, recordsArrivals: Bool = false,
        microsecondsPerPacket: Int64 = 0, webRTCSubscribers: Bool = false, stampsTransportWide: Bool = false
    ) {
        let (_, events) = AsyncStream.makeStream(of: MediaPlaneEvent.self)
        var configuration = MediaPlaneConfiguration()
        if let retransmissionBudgetPercent { configuration.retransmissionPolicy.budgetPercent = retransmissionBudgetPercent }
        if segmentPadding > 0 {
            configuration.segmentationOffload = .on
            configuration.segmentPaddingBytes = segmentPadding
        }
        core = MediaCore(
            configuration: configuration, reports: ReportStore(), output: output, hasWebRTCSocket: false, events: events, randomSeed: 1)
        core.advanceClock(monotonicUs: nowUs, unixMs: 1_700_000_000_000)
        core.startTimers()
        var inbound: SRTPSession?
        if let publisherProfile {
            let keys = SDESKeying.generateKeyingMaterial(for: publisherProfile)
            inbound = try! SRTPSession(profile: publisherProfile, keyingMaterial: keys, direction: .receiver)
            publisherSender = try! SRTPSession(profile: publisherProfile, keyingMaterial: keys, direction: .sender)
        } else {
            publisherSender = nil
        }
        core.apply(.addTransport(id: 1, fd: -1, port: 1, profile: publisherProfile, outbound: nil))
        core.apply(.connectTransport(id: 1, remote: publisherAddress, inbound: inbound.map { SRTPSessionHandoff($0) }, addressGranted: true))
        publisher = core.transports[1]!
        if recordsArrivals { core.apply(.setCongestionControl(id: 1, CongestionControlSpec(receivedSequenceExtensionId: Self.transportSequenceId))) }
        core.apply(.addSource(MediaSourceSpec(id: 1, transportId: 1, ssrc: Self.ssrc, isVideo: true, codec: "VP8", clockRate: 90_000)))
        Self.addSubscribers(
            to: core, count: subscribers, firstTransport: 2, source: 1, profile: profile, webRTC: webRTCSubscribers, stampsTransportWide: stampsTransportWide)
        length = packetLength
        self.shorterEveryOther = shorterEveryOther
        carriesTransportSequence = transportSequence
        self.microsecondsPerPacket = microsecondsPerPacket
        template = .allocate(byteCount: 2048, alignment: 16)
        template.initializeMemory(as: UInt8.self, repeating: 0xA5)
        _ = RTPHeaderWriter.write(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: 90_000, ssrc: Self.ssrc, into: template)
        receiveBuffer = .allocate(byteCount: 32 * 2048, alignment: 16)
        var payload = 12
        if transportSequence {
            // RFC 8285 one-byte form: the sequence number (two bytes) under its id, one byte of padding.
            template[0] |= 0x10
            for (index, byte) in [0xBE, 0xDE, 0x00, 0x01, Self.transportSequenceId << 4 | 1, 0, 0, 0].enumerated() { template[12 + index] = byte }
            payload = 20
        }
        self.payloadOffset = payload
        // A keyframe first, so every sink is past its keyframe gate: VP8 descriptor, P bit 0.
        template[payload] = 0x10
        template[payload + 1] = 0x00
        deliver()
        // Delta frames from now on.
        template[payload + 1] = 0x01
        core.flushAll()
    }

    /// Video packets the core padded to their run so far (`media.gsoPadding`).
    public var paddedPackets: UInt64 { core.counters.paddedPackets }

    /// Transport-wide feedback packets the core sent so far.
    public var transportFeedbackSent: UInt64 { core.counters.transportFeedbackSent }

    /// NACKed packets the core resent so far.
    public var retransmissionsSent: UInt64 { core.counters.retransmissionsSent }

    deinit {
        template.deallocate()
        receiveBuffer.deallocate()
    }

    /// Gives `core` `count` subscribers on transports of their own (ids from `firstTransport`),
    /// each with one sink bound to `source`.
    public static func addSubscribers(
        to core: MediaCore, count: Int, firstTransport: Int, source: UInt32, profile: SRTPProfile?, webRTC: Bool = false, stampsTransportWide: Bool = false
    ) {
        for index in 0..<count {
            let id = firstTransport + index
            let outbound = profile.map { try! SRTPSession(profile: $0, keyingMaterial: SDESKeying.generateKeyingMaterial(for: $0), direction: .sender) }
            core.apply(.addTransport(id: id, fd: -1, port: id, profile: profile, outbound: outbound.map { SRTPSessionHandoff($0) }))
            if webRTC {
                // As a WebRTC subscriber is set up: extensions rewritten, the audio level under id 2.
                core.transports[id]!.rewritesExtensions = true
                core.transports[id]!.audioLevelExtensionId = 2
            }
            if stampsTransportWide { core.apply(.setCongestionControl(id: id, CongestionControlSpec(sentSequenceExtensionId: 3))) }
            // Granted, as the room server grants an address: the relay sends to it from the start.
            core.apply(.connectTransport(id: id, remote: PeerEndpoint(ip: 0x7F00_0001, port: UInt16(6000 + id)), inbound: nil, addressGranted: true))
            core.apply(.addSink(MediaSinkSpec(id: UInt32(100 + id), transportId: id, outputSSRC: UInt32(0xA000 + id), isVideo: true, clockRate: 90_000)))
            core.apply(.bind(sink: UInt32(100 + id), source: source))
        }
    }

    /// Joins this core to `remote` (shard 1) with a pair of rings, as `ShardRouting` would, and
    /// gives `remote` a remote source of the publisher's track fed through them.
    public func pipe(to remote: MediaCore) {
        let out = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
        let back = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
        core.addLink(PipeLink(peer: 1, outbound: out, inbound: back))
        remote.addLink(PipeLink(peer: 0, outbound: back, inbound: out))
        remote.apply(.addRemoteSource(MediaSourceSpec(id: 1, transportId: -1, ssrc: Self.ssrc, isVideo: true, codec: "VP8", clockRate: 90_000), peer: 0))
        core.apply(.addPipeOutlet(source: 1, peer: 1))
    }

    /// One received datagram, as the shell hands it over after `recvmmsg`.
    @inline(__always)
    public func deliver() {
        sequence &+= 1
        RTPHeaderWriter.setSequenceNumber(sequence, in: template.baseAddress!)
        if carriesTransportSequence {
            template[17] = UInt8(truncatingIfNeeded: sequence >> 8)
            template[18] = UInt8(truncatingIfNeeded: sequence)
        }
        if microsecondsPerPacket != 0 {
            nowUs += microsecondsPerPacket
            core.advanceMonotonicClock(monotonicUs: nowUs)
        }
        let slot = receiveBuffer + Int(sequence & 31) * 2048
        var length = sequence & 1 == 1 ? self.length - shorterEveryOther : self.length
        slot.copyMemory(from: template.baseAddress!, byteCount: length)
        if let publisherSender { _ = publisherSender.protectRTP(slot, length: &length, capacity: 2048) }
        core.handlesReceiveBatch = true
        core.handleDatagram(on: publisher, buffer: slot, length: length, from: publisherAddress)
        core.handlesReceiveBatch = false
    }
}

/// `iterations` received packets, each followed by the first subscriber's NACK for it, handled
/// as the core handles RTCP once its SRTCP layer is off: the retransmission limiter, the lookup
/// in the retransmission buffer, the copy into a send slot, the seal and the queue. `scratch`
/// holds the NACK (64 bytes).
@inline(never)
public func runCoreNackEveryPacket(_ state: CoreFanOut, iterations: Range<Int>, scratch: UnsafeMutableRawBufferPointer) {
    guard let sink = state.core.sinks[102] else { preconditionFailure("no subscriber") }
    for iteration in iterations {
        state.deliver()
        let length = RTCPWriter.writeGenericNACK(
            senderSSRC: 0xFEED, mediaSSRC: sink.rewriter.outputSSRC, packetID: sink.rewriter.lastOutputSequenceNumber, lostBitmask: 0, into: scratch, at: 0)
        state.core.handleRTCP(UnsafeRawBufferPointer(rebasing: scratch[0..<(length ?? 0)]), on: sink.transport)
        if iteration & 31 == 31 { state.core.flushAll() }
    }
    state.core.flushAll()
}

/// The core's per-packet work for `iterations` received packets, flushed every 32 as the shell
/// does after each `recvmmsg` batch.
@inline(never)
public func runCoreFanOut(_ state: CoreFanOut, iterations: Range<Int>) {
    for iteration in iterations {
        state.deliver()
        if iteration & 31 == 31 {
            state.core.flushAll()
            if state.microsecondsPerPacket != 0 {
                state.core.runTimers()
                state.core.flushAll()
            }
        }
    }
    state.core.flushAll()
}
