import ICE
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
        let cases: [(DropReason, [UInt8], PeerEndpoint)] = [
            (.truncated, [], Self.publisher),
            (.oversized, [UInt8](repeating: 0x80, count: 1501), Self.publisher),
            (.notRTP, [0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: 16), Self.publisher),
            (.unexpectedSource, Self.keyframe, PeerEndpoint(ip: 0x0A00_0001, port: 1)),
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

    /// A packet on the publisher's RTX SSRC with another payload type is not RTX: its SSRC is
    /// known, so it is not counted as an unknown one.
    @Test func anRTXPacketWithAnotherPayloadTypeIsCountedAsSuch() {
        let h = MediaCoreForwardingTests.pair(rtx: (0x4444, 97))
        h.receive(Self.keyframe, on: 1, from: Self.publisher)
        var bytes = ScriptedPacket.rtp(
            ssrc: 0x4444, sequenceNumber: 500, timestamp: 0, payloadType: 98, payload: [0x00, 11] + ScriptedPacket.vp8Payload(keyframe: false))
        let before = h.core.counters.drops
        let mark = h.mark
        h.receive(bytes, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.unexpectedPayloadType, in: h, since: before)
        #expect(h.core.counters.retransmissionsReceived == 0)
        #expect(h.sent(on: 2, since: mark).isEmpty)
        // The same packet with the negotiated type is the lost packet 11, forwarded.
        bytes[1] = 97
        h.receive(bytes, on: 1, from: Self.publisher)
        #expect(h.core.counters.retransmissionsReceived == 1)
        #expect(h.drops(.unexpectedPayloadType) == 1)
        #expect(h.rtpSent(on: 2, since: mark).count == 1)
    }

    /// A padding-only RTX packet (a bandwidth probe) and one too short to hold the original
    /// sequence number end at the relay, each counted under its own reason.
    @Test func paddingOnlyAndTruncatedRTXPacketsAreCounted() {
        let h = MediaCoreForwardingTests.pair(rtx: (0x4444, 97))
        h.receive(Self.keyframe, on: 1, from: Self.publisher)
        // P bit set, no payload, four bytes of padding whose last byte counts them.
        var probe = ScriptedPacket.rtp(ssrc: 0x4444, sequenceNumber: 600, timestamp: 0, payloadType: 97, payload: [0, 0, 0, 4])
        probe[0] |= 0x20
        var before = h.core.counters.drops
        let mark = h.mark
        h.receive(probe, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.paddingOnly, in: h, since: before)

        let short = ScriptedPacket.rtp(ssrc: 0x4444, sequenceNumber: 601, timestamp: 0, payloadType: 97, payload: [0x01])
        before = h.core.counters.drops
        h.receive(short, on: 1, from: Self.publisher)
        Self.expectOnlyDrop(.malformedRTP, in: h, since: before)
        #expect(h.core.counters.retransmissionsReceived == 2, "both came on the RTX stream")
        #expect(h.sent(on: 2, since: mark).isEmpty)
    }

    /// RTCP the relay would send on a transport without its sending key is not sent, and counted.
    @Test func rtcpWithoutASendingKeyIsCounted() throws {
        let h = CoreHarness()
        h.core.apply(.addTransport(id: 3, fd: -1, port: 40_003, profile: .aeadAES128GCM, outbound: nil))
        h.core.apply(.connectTransport(id: 3, remote: Self.publisher, inbound: nil))
        let transport = try #require(h.core.transports[3])
        let before = h.core.counters.drops
        let slot = h.core.reserveSlot(on: transport)
        let length = try #require(
            RTCPWriter.writePictureLossIndication(
                senderSSRC: 1, mediaSSRC: 2, into: UnsafeMutableRawBufferPointer(start: slot, count: transport.slotCapacity), at: 0))
        h.core.commitRTCP(on: transport, slot: slot, length: length)
        h.core.flushAll()
        Self.expectOnlyDrop(.noOutboundKey, in: h, since: before)
        #expect(h.output.datagrams.isEmpty)
        #expect(h.core.counters.rtcpOut == 0)
    }

    /// A STUN answer the WebRTC socket refuses (its send buffer full) is counted, not lost
    /// without a trace.
    @Test func aSTUNAnswerTheSocketRefusesIsCounted() {
        let h = CoreHarness(hasWebRTCSocket: true)
        let relay = ICECredentials(ufrag: "RlyA", password: "relaypassword0123456789+/")
        let peer = ICECredentials(ufrag: "PeerUfrag1", password: "peerpassword0123456789ABCD")
        let agent = ICELiteAgent(localCredentials: relay, remoteCredentials: peer, timeouts: ICETimeouts(), createdAt: UInt64(h.nowMs) * 1_000_000)
        h.core.apply(.addWebRTCTransport(id: 5, agent: agent, audioLevelExtensionId: 0))
        var checks = (1...2).map { number in
            var request = [UInt8](repeating: 0, count: 512)
            let check = ICEConnectivityCheck(
                transactionID: STUNTransactionID(high: 0xC0FF_EE00, low: UInt64(number)), localUfrag: peer.ufrag, remoteCredentials: relay,
                priority: 0x6E7F_1EFF, tieBreaker: 7, useCandidate: true)
            let length = request.withUnsafeMutableBytes { check.writeRequest(into: $0) } ?? 0
            return Array(request.prefix(length))
        }
        // Answered while the socket takes it, then refused.
        checks[0].withUnsafeMutableBytes { h.core.handleWebRTCDatagram($0.baseAddress!, length: $0.count, from: Self.subscriber) }
        #expect(h.output.datagrams.count == 1)
        h.output.refusesWebRTCSends = true
        let before = h.core.counters.drops
        let sentBefore = h.core.counters.packetsOut
        checks[1].withUnsafeMutableBytes { h.core.handleWebRTCDatagram($0.baseAddress!, length: $0.count, from: Self.subscriber) }
        Self.expectOnlyDrop(.sendBufferFull, in: h, since: before)
        #expect(h.output.datagrams.count == 1)
        #expect(h.core.counters.packetsOut == sentBefore)
    }

    /// Messages that come over a pipe for a source the shard no longer holds (its last
    /// subscriber went while they were in the ring) are counted, both ways.
    @Test func pipedMessagesForSourcesTheShardDoesNotHoldAreCounted() {
        let (a, b) = MediaCorePipeTests.shards()
        MediaCorePipeTests.exchange(a, b)
        // B lets its copy go; A still pushes the packet that was on its way.
        b.core.apply(.removeSource(id: 10))
        var before = b.core.counters.drops
        a.receive(Self.keyframe, on: 1, from: Self.publisher)
        b.core.drainLinks()
        Self.expectOnlyDrop(.pipeUnknownSource, in: b, since: before)
        #expect(b.sent(on: 2).isEmpty)

        // A keyframe request that reaches A after its source went.
        a.core.apply(.removeSource(id: 10))
        before = a.core.counters.drops
        #expect(b.core.links[0]!.push(UnsafeRawBufferPointer(start: nil, count: 0), tag: PipeTag.make(PipeTag.keyframeRequest, source: 10)))
        a.core.drainLinks()
        Self.expectOnlyDrop(.pipeUnknownSource, in: a, since: before)
    }
}
