import MediaPlane
import PKRelayClient
import Protocol
import RTPWire
import SecureTransport
import Testing

@testable import PKRelayServer

/// The steps a test's own WebRTC client takes after its ICE check, on whatever socket carries
/// them (UDP or ICE-TCP, IPv4 or IPv6): a DTLS client for the relay's fingerprint, its SRTP keys,
/// and SRTP video that a viewer must receive.
enum ICEClient {
    /// A DTLS client that expects the relay's certificate for `transport`.
    static func dtls(_ certificate: DTLSCertificate, for transport: CreateTransportResult) throws -> DTLSEndpoint {
        let relayFingerprint = try #require(DTLSFingerprint(sdpValue: "sha-256 \(transport.dtls!.fingerprint.value)"))
        return try DTLSEndpoint(context: DTLSContext(certificate: certificate), role: .client, expectedPeerFingerprints: [relayFingerprint])
    }

    /// The SRTP keys of a handshake that finished, else nil.
    static func keys(_ dtls: DTLSEndpoint) -> DTLSSRTPKeys? {
        if case .connected(let keys) = dtls.state { return keys }
        return nil
    }

    /// Sends 20 VP8 frames (two keyframes) as SRTP through `send`, 20 ms apart, and waits until
    /// the viewer got every packet; on failure records the relay's drops.
    static func sendVideo(_ srtp: DTLSSRTPKeys, to viewer: TestSubscriber, relay: TestRelay, _ send: ([UInt8]) -> Void) async throws {
        let sender = try SRTPSession(profile: srtp.profile, keyingMaterial: srtp.localKeyingMaterial, direction: .sender)
        var packetizer = VP8Packetizer(ssrc: 4242)
        var sent = 0
        for frame in 0..<20 {
            for packet in packetizer.nextFrame(keyframe: frame % 10 == 0, size: 2400) {
                var bytes = packet.serialized(reservingCapacity: srtp.profile.rtpTrailerLength)
                var length = bytes.count - srtp.profile.rtpTrailerLength
                let status = bytes.withUnsafeMutableBytes { sender.protectRTP($0.baseAddress!, length: &length, capacity: $0.count) }
                #expect(status == .ok)
                send(Array(bytes[..<length]))
                sent += 1
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        do {
            // Every packet from the first keyframe on (the relay rewrites VP8 descriptors, so
            // counted rather than compared).
            let video = viewer.videoSSRC
            try await viewer.endpoint.waitForRTP(timeout: .seconds(10), "the viewer gets the anchor's \(sent) packets") { packets in
                packets.filter { $0.ssrc == video }.count >= sent
            }
        } catch {
            let report = relay.server.media.latestReport()
            Issue.record(
                "drops \(DropReason.allCases.filter { report.counters.drops($0) > 0 }.map { "\($0)=\(report.counters.drops($0))" }); transports \(report.transports); viewer got \(viewer.video.count)"
            )
            throw error
        }
    }
}
