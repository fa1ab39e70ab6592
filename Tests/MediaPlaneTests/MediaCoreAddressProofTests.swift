import RTPWire
import SecureTransport
import StreamCore
import Testing

@testable import MediaPlane

/// A transport connected with an explicit address sends nothing there (media, RTCP,
/// retransmissions) until that address has proved it wants it: an authenticated packet from it
/// (for plain RTP, any packet from it), or a grant from the control plane. Otherwise whoever
/// holds a token could aim a stream at any address.
@Suite struct MediaCoreAddressProofTests {
    static let publisher = MediaCoreForwardingTests.publisher
    static let subscriber = MediaCoreForwardingTests.subscriber
    static let stranger = PeerEndpoint(ip: 0x0A00_0001, port: 6000)
    static let ssrc = MediaCoreForwardingTests.sourceSSRC
    static let output = MediaCoreForwardingTests.outputSSRC
    static let relayKeys = [UInt8](repeating: 0x11, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)
    static let peerKeys = [UInt8](repeating: 0x22, count: SRTPProfile.aeadAES128GCM.keyingMaterialLength)

    static func keyframe(_ sequenceNumber: UInt16) -> [UInt8] {
        ScriptedPacket.video(ssrc: ssrc, sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 3000, keyframe: true)
    }

    /// Publisher 1 (granted) with source 10; subscriber 2 at `subscriber`, not granted, with sink 20 bound.
    static func plainPair() -> CoreHarness {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: publisher)
        h.addPlainTransport(2, remote: subscriber, addressGranted: false)
        h.addVideoSource(10, transport: 1, ssrc: ssrc)
        h.addSink(20, transport: 2, outputSSRC: output)
        h.bind(sink: 20, source: 10)
        h.core.flushAll()
        return h
    }

    @Test func aPlainSubscriberGetsNothingUntilItsAddressSendsSomething() {
        let h = Self.plainPair()
        h.receive(ScriptedPacket.senderReport(ssrc: Self.ssrc, rtpTimestamp: 0), on: 1, from: Self.publisher)
        h.receive(Self.keyframe(100), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2).isEmpty, "neither media nor a sender report")
        #expect(h.drops(.addressUnproven) == 1)
        #expect(h.drops(.sinkNotConnected) == 0)
        // Its keyframe request was not kept alive for it: a subscriber that cannot receive does not count.
        #expect(h.core.sources[10]?.hasSinksWaitingForKeyframe == false)

        // Another address cannot speak for it.
        h.receive(ScriptedPacket.receiverReport(), on: 2, from: Self.stranger)
        #expect(h.drops(.unexpectedSource) == 1)
        h.receive(Self.keyframe(101), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2).isEmpty)

        // Its own receiver report proves it: the publisher is asked for a keyframe at once (once
        // it listens again: it answered the bind's request a moment ago).
        h.advance(ms: KeyframeRequestThrottle.publisherHoldMs)
        let mark = h.mark
        h.receive(ScriptedPacket.receiverReport(), on: 2, from: Self.subscriber)
        #expect(h.rtcpTypes(on: 1, since: mark) == [206])
        h.receive(Self.keyframe(102), on: 1, from: Self.publisher)
        #expect(h.rtpSent(on: 2, since: mark).map(\.ssrc) == [Self.output])
        #expect(h.output.datagrams[mark...].allSatisfy { $0.transportId != 2 || $0.destination == Self.subscriber })
    }

    @Test func aGrantedAddressGetsTheStreamAtOnce() {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: Self.publisher)
        h.addPlainTransport(2, remote: Self.subscriber, addressGranted: true)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        h.addSink(20, transport: 2, outputSSRC: Self.output)
        h.bind(sink: 20, source: 10)
        h.receive(Self.keyframe(100), on: 1, from: Self.publisher)
        #expect(h.rtpSent(on: 2).count == 1)
        #expect(h.drops(.addressUnproven) == 0)
    }

    /// A publisher with an explicit address proves it with its first packet: before that the
    /// relay does not ask it for keyframes or send it reports; after it, it does.
    @Test func aPublisherAtAnExplicitAddressIsAskedForKeyframesOnceItSends() {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: Self.publisher, addressGranted: false)
        h.addPlainTransport(2, remote: Self.subscriber)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        h.addSink(20, transport: 2, outputSSRC: Self.output)
        h.bind(sink: 20, source: 10)
        h.core.flushAll()
        #expect(h.sent(on: 1).isEmpty, "no PLI to an address that never sent")
        h.receive(ScriptedPacket.video(ssrc: Self.ssrc, sequenceNumber: 100, timestamp: 0, keyframe: false), on: 1, from: Self.publisher)
        #expect(h.rtcpTypes(on: 1) == [206])
    }

    /// SRTP: only a packet that authenticates proves the address. RTCP from a second address
    /// (RTP port + 1 senders) is accepted once it authenticates, but proves only itself: a NACK
    /// from there is not answered towards the unproven address.
    @Test func anSRTPSubscriberProvesItsAddressWithAnAuthenticatedPacketFromIt() throws {
        let h = CoreHarness()
        h.addPlainTransport(1, remote: Self.publisher)
        try h.addSRTPTransport(2, remote: Self.subscriber, relayKeys: Self.relayKeys, peerKeys: Self.peerKeys, addressGranted: false)
        h.addVideoSource(10, transport: 1, ssrc: Self.ssrc)
        h.addSink(20, transport: 2, outputSSRC: Self.output)
        h.bind(sink: 20, source: 10)
        let peer = try SRTPSession(profile: .aeadAES128GCM, keyingMaterial: Self.peerKeys, direction: .sender)
        func protectRTCP(_ plain: [UInt8]) -> [UInt8] {
            var bytes = plain + [UInt8](repeating: 0, count: 64)
            var length = plain.count
            let status = bytes.withUnsafeMutableBytes { peer.protectRTCP($0.baseAddress!, length: &length, capacity: $0.count) }
            #expect(status == .ok)
            return Array(bytes[0..<length])
        }
        h.receive(Self.keyframe(100), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2).isEmpty)

        // A forged report from the address does not prove it.
        var forged = protectRTCP(ScriptedPacket.receiverReport())
        forged[forged.count - 1] ^= 0x01
        h.receive(forged, on: 2, from: Self.subscriber)
        #expect(h.drops(.srtpAuthenticationFailed) == 1)
        // An authenticated one from the second address is taken, but speaks only for itself.
        let secondAddress = PeerEndpoint(ip: Self.subscriber.ip, port: Self.subscriber.port + 1)
        h.receive(protectRTCP(ScriptedPacket.receiverReport()), on: 2, from: secondAddress)
        #expect(h.core.transports[2]?.rtcpRemoteKey == secondAddress.key)
        h.receive(Self.keyframe(101), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2).isEmpty)
        h.receive(protectRTCP(ScriptedPacket.nack(mediaSSRC: Self.output, packetID: 0)), on: 2, from: secondAddress)
        #expect(h.sent(on: 2).isEmpty)
        #expect(h.drops(.addressUnproven) == 3, "two keyframes and the NACK's one packet")

        // An authenticated report from the address itself does.
        let mark = h.mark
        h.receive(protectRTCP(ScriptedPacket.receiverReport()), on: 2, from: Self.subscriber)
        h.receive(Self.keyframe(102), on: 1, from: Self.publisher)
        #expect(h.sent(on: 2, since: mark).count == 1)
        #expect(h.output.datagrams[mark...].allSatisfy { $0.transportId != 2 || $0.destination == Self.subscriber })
    }
}
