import Foundation
import ICE
import PKRelayClient
import Protocol
import RTPWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The WebRTC control surface without a browser: transport creation, the errors an app
/// developer meets, and ICE checks answered on the shared port over real UDP.
@Suite("WebRTC control and ICE", .timeLimit(.minutes(1)))
struct WebRTCControlTests {
    static func errorCode(_ body: () async throws -> Void) async -> (code: Int, message: String)? {
        do { try await body() } catch let error as ControlClientError {
            if case .relay(let relayError) = error { return (relayError.code.rawValue, relayError.message) }
            return nil
        } catch { return nil }
        return nil
    }

    @Test("createTransport kind webrtc: ICE credentials, DTLS fingerprint, the shared port; wrong uses are refused")
    func transportAndErrors() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "c1", user: "anchor")
            let created: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            let ice = try #require(created.ice)
            let dtls = try #require(created.dtls)
            #expect(created.kind == "webrtc" && created.srtp == nil && created.ip == "127.0.0.1")
            #expect(ICECredentials(ufrag: ice.usernameFragment, password: ice.password).isValid)
            #expect(dtls.role == "server" && dtls.fingerprint.algorithm == "sha-256")
            #expect(dtls.fingerprint.value.split(separator: ":").count == 32)
            let second: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            #expect(second.port == created.port, "every WebRTC transport shares one port")
            #expect(second.ice?.usernameFragment != ice.usernameFragment)

            let cases: [(String, () async throws -> Void, Int, String)] = [
                ("unknown kind", { let _: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "quic")) }, -32602, "kind"),
                ("srtpProfile on webrtc", { let _: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc", srtpProfile: "AEAD_AES_128_GCM")) }, -32602, "srtpProfile"),
                ("connectTransport on webrtc", { try await client.call("connectTransport", ConnectTransportParams(transportId: created.transportId, srtpKey: nil)) }, 4004, "ICE and DTLS"),
                ("publish without an offer", { let _: PublishStreamResult = try await client.request("publishStream", PublishStreamParams(roomId: "c1", transportId: created.transportId, tracks: [
                    TrackDescription(kind: .video, ssrc: 1, payloadType: 96, codec: "VP8", clockRate: 90000)])) }, -32602, "params.sdp"),
                ("garbage offer", { let _: PublishStreamResult = try await client.request("publishStream", PublishStreamParams(roomId: "c1", transportId: created.transportId, tracks: [], sdp: "hello")) }, 4018, "SDP offer"),
                ("answer with nothing offered", { try await client.call("answerTransportOffer", AnswerTransportOfferParams(transportId: created.transportId, revision: 1, sdp: "v=0")) }, 4010, "no offer"),
                ("answer on an SRTP transport id", { try await client.call("answerTransportOffer", AnswerTransportOfferParams(transportId: 999_999, revision: 1, sdp: "v=0")) }, 4003, "not a WebRTC transport"),
            ]
            for (name, call, code, text) in cases {
                let error = await Self.errorCode(call)
                #expect(error?.code == code, "\(name): \(String(describing: error))")
                #expect(error?.message.contains(text) == true, "\(name): '\(error?.message ?? "no error")' should mention \(text)")
            }
            // The connection still works after every refusal.
            let third: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            #expect(third.kind == "webrtc")
        }
    }

    @Test("ICE checks on the shared port: success with the mapped address, 401 for a wrong password")
    func iceChecksOverUDP() async throws {
        try await TestRelay.with { relay in
            let client = try await relay.join(room: "c2", user: "anchor")
            let created: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(kind: "webrtc"))
            let ice = try #require(created.ice)
            let socket = try UDPTestSocket()
            defer { socket.close() }

            let check = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: ice.password),
                priority: 1_853_824_767, tieBreaker: 0x1234_5678_9ABC_DEF0, useCandidate: true)
            let response = try #require(socket.exchange(check.request(), port: created.port), "no answer to a valid check")
            #expect(check.readResponse(response) == .success(mappedAddress: STUNAddress(ipv4: 0x7F00_0001, port: socket.localPort)))

            let wrong = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: ice.usernameFragment, password: String(repeating: "x", count: 24)),
                priority: 1, tieBreaker: 1, useCandidate: false)
            let refusal = try #require(socket.exchange(wrong.request(), port: created.port), "no answer to a wrongly signed check")
            #expect(wrong.readResponse(refusal) == .errorResponse(.unauthorized))

            // A check for nobody's ufrag gets no answer at all.
            let stranger = ICEConnectivityCheck(
                transactionID: .secureRandom(), localUfrag: "clnt", remoteCredentials: ICECredentials(ufrag: "nobodyhere", password: String(repeating: "y", count: 24)),
                priority: 1, tieBreaker: 1, useCandidate: false)
            #expect(socket.exchange(stranger.request(), port: created.port, timeoutMs: 300) == nil)
            // The wrongly signed check and the stranger's, once the once-a-second report is out.
            let rejected = try await relay.waitForMetric("pkrelay_dropped_packets_total{reason=\"stun_rejected\"}") { $0 >= 2 }
            #expect(rejected >= 2, "refused checks are counted")
        }
    }
}

/// A blocking UDP socket on 127.0.0.1 for one request and its answer.
final class UDPTestSocket {
    let fd: Int32
    let localPort: UInt16

    struct SocketFailed: Error {}

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0 else { Glibc.close(descriptor); throw SocketFailed() }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        fd = descriptor
        localPort = UInt16(bigEndian: address.sin_port)
    }

    /// Sends `request` to 127.0.0.1:`port` and waits up to `timeoutMs` for one datagram.
    func exchange(_ request: [UInt8], port: Int, timeoutMs: Int = 2000) -> [UInt8]? {
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = in_port_t(UInt16(port).bigEndian)
        destination.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let sent = request.withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard sent == request.count else { return nil }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeoutMs)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1500)
        let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return received > 0 ? Array(buffer[..<received]) : nil
    }

    func close() { Glibc.close(fd) }
}
