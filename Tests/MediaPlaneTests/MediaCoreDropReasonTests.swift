import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// Every reason the core drops a packet for, each caused by one scripted datagram and counted
/// under its own name, with nothing sent for it.
@Suite struct MediaCoreDropReasonTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let ssrc = MediaCoreForwardingTests.sourceSSRC
    static let keyframe = ScriptedPacket.video(ssrc: ssrc, sequenceNumber: 10, timestamp: 0, keyframe: true)

    /// Expects exactly one drop, for `reason`, and no other counter to move.
    static func expectOnlyDrop(_ reason: DropReason, in h: CoreHarness, since before: [UInt64], sourceLocation: SourceLocation = #_sourceLocation) {
        for candidate in DropReason.allCases {
            let delta = h.drops(candidate) - before[candidate.rawValue]
            #expect(delta == (candidate == reason ? 1 : 0), "\(candidate.label)", sourceLocation: sourceLocation)
        }
    }

    @Test func packetsThatAreNotMediaForThisTransport() {
        let h = MediaCoreForwardingTests.pair()
        let cases: [(DropReason, [UInt8], IPv4Endpoint)] = [
            (.truncated, [], Self.publisher),
            (.oversized, [UInt8](repeating: 0x80, count: 1501), Self.publisher),
            (.notRTP, [0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 16), Self.publisher),
            (.unexpectedSource, Self.keyframe, IPv4Endpoint(ip: 0x0A00_0001, port: 1)),
            (.malformedRTP, [0x90, 96, 0, 1, 0, 0, 0, 0, 0x11, 0x11, 0x11, 0x11, 0xBE, 0xDE, 0x7F, 0xFF], Self.publisher),
            (.malformedRTCP, [0x80, 200, 0x00, 0x10] + [UInt8](repeating: 0, count: 8), Self.publisher),
            (.unknownSSRC, ScriptedPacket.video(ssrc: 0xDEAD, sequenceNumber: 1, timestamp: 0, keyframe: true), Self.publisher),
            (.waitingForKeyframe, ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 9, timestamp: 0, keyframe: false), Self.publisher),
        ]
        for (reason, bytes, from) in cases {
            let before = h.core.counters.drops
            let mark = h.mark
            h.receive(bytes, on: 1, from: from)
            Self.expectOnlyDrop(reason, in: h, since: before)
            #expect(h.sent(on: 2, since: mark).isEmpty, "\(reason.label)")
        }
    }

    @Test func aTransportNotYetConnectedTakesNothing() {
        let h = CoreHarness()
        h.addPlainTransport(1, connected: false)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        let before = h.core.counters.drops
        h.receive(Self.keyframe, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.notConnected, in: h, since: before)
        #expect(h.core.transports[1]?.remoteKey == 0)
    }

    @Test func aSubscriberWithoutAnAddressGetsNothingAndKeepsWaitingForItsKeyframe() {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: Self.publisher)
        h.addPlainTransport(2)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        h.addSink(20, transport: 2, outputSSRC: 0x2222)
        h.bind(sink: 20, source: 10)
        let before = h.core.counters.drops
        h.receive(Self.keyframe, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.sinkNotConnected, in: h, since: before)
        #expect(h.core.sinks[20]?.waitingForKeyframe == true)
    }

    @Test func aPacketOfAnOlderGenerationIsStale() {
        let h = MediaCoreForwardingTests.pair()
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 1000, timestamp: 0, keyframe: true), on: 1, from: Self.publisher)
        let before = h.core.counters.drops
        // Far before the generation's first packet: it belongs to a stream already replaced.
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 990, timestamp: 0, keyframe: false), on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.staleSequence, in: h, since: before)
    }

    @Test func srtpGarbageReplaysAndMissingKeysAreCountedApart() throws {
        let relayKeys = [UInt8](repeating: 0x11, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
        let peerKeys = [UInt8](repeating: 0x22, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
        let h = CoreHarness()
        try h.addSRTPTransport(1, remote: Self.publisher, relayKeys: relayKeys, peerKeys: peerKeys)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        let sender = try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: peerKeys, direction: .sender)
        var packet = Self.keyframe + [UInt8](repeating: 0, count: 32)
        var length = Self.keyframe.count
        #expect(packet.withUnsafeMutableBytes { sender.protectRTP($0.baseAddress!, length: &length, capacity: $0.count) } == .ok)
        let protected = Array(packet[0..<length])

        var before = h.core.counters.drops
        h.receive(protected, on: 1, from: Self.publisher)
        #expect(h.core.sources[10]?.report.packets == 1)
        #expect(h.core.counters.drops == before)

        before = h.core.counters.drops
        h.receive(protected, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.srtpReplayed, in: h, since: before)

        var forged = protected
        forged[forged.count - 1] ^= 0xFF
        forged[3] &+= 1
        before = h.core.counters.drops
        h.receive(forged, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.srtpAuthenticationFailed, in: h, since: before)
        #expect(h.core.sources[10]?.report.packets == 1)

        // A transport that has its sending key but not yet the peer's.
        h.core.apply(.addTransport(id: 3, fd: -1, port: 40_003, profile: .aeadAES128GCM, outbound: nil))
        h.core.apply(.connectTransport(id: 3, remote: Self.publisher, inbound: nil))
        before = h.core.counters.drops
        h.receive(protected, on: 3, from: Self.publisher)
        Self.expectOnlyDrop(.noInboundKey, in: h, since: before)
    }

    @Test func aFullSocketBufferIsCountedPerDatagramNotSent() {
        let h = MediaCoreForwardingTests.pair()
        h.output.acceptPerBatch = 0
        let before = h.core.counters.drops
        let sentBefore = h.core.counters.packetsOut
        h.receive(Self.keyframe, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.sendBufferFull, in: h, since: before)
        #expect(h.core.counters.packetsOut == sentBefore)
    }

    @Test func aSTUNCheckNoTransportKnowsIsRejected() {
        let h = CoreHarness(hasWebRTCSocket: true)
        // A binding request (type 0x0001) with the magic cookie and no USERNAME.
        var stun: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xA4, 0x42]
        stun += [UInt8](repeating: 7, count: 12)
        let before = h.core.counters.drops
        stun.withUnsafeMutableBytes { h.core.handleWebRTCDatagram($0.baseAddress!, length: $0.count, from: Self.publisher) }
        Self.expectOnlyDrop(.stunRejected, in: h, since: before)
        #expect(h.output.datagrams.isEmpty)
    }
}
