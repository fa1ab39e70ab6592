import CSocketShims
import Foundation
import ICE
import PKRelayClient
import Protocol
import SDP
import SecureTransport
import TrafficCore

/// What a browser does on a receiving WebRTC transport before media flows, done on the
/// simulated client's own socket before the media engine takes it: the SDP answer to each of
/// the relay's offers, the ICE connectivity check to the relay's port (controlling, with
/// USE-CANDIDATE, as a browser facing an ICE-lite peer nominates), the DTLS handshake as
/// client, and consent checks while the transport lives. The keys the handshake exports are
/// the client's SRTP keys from then on.
struct WebRTCClientSide: Sendable {
    /// The relay's side, from `createTransport`.
    let relayCredentials: ICECredentials
    let relayFingerprint: DTLSFingerprint
    let relayIP: UInt32
    let relayPort: UInt16
    /// This client's ICE credentials, in every answer.
    let local: ICECredentials
    let fd: Int32

    /// One certificate for every simulated client: a browser makes one per peer connection, but
    /// generating thousands would time the tool, not the relay.
    static let context: DTLSContext? = try? DTLSContext(certificate: DTLSCertificate())

    init?(created: CreateTransportResult, relayIP: UInt32, fd: Int32) {
        guard let ice = created.ice, let dtls = created.dtls,
            let fingerprint = DTLSFingerprint(sdpValue: "\(dtls.fingerprint.algorithm) \(dtls.fingerprint.value)")
        else { return nil }
        relayCredentials = ICECredentials(ufrag: ice.usernameFragment, password: ice.password)
        relayFingerprint = fingerprint
        self.relayIP = relayIP
        relayPort = UInt16(created.port)
        local = ICECredentials.random()
        self.fd = fd
    }

    /// The answer a browser gives the relay's offer: every section it is offered, receiving only
    /// (inactive where the offer is), with the offered codecs, this client's ICE credentials and
    /// fingerprint, and DTLS as client. With `transportWide` it keeps the transport-wide sequence
    /// number extension and `transport-cc` feedback, as browsers do.
    func answer(to offer: String, transportWide: Bool) -> String {
        let lines = offer.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        var sections: [[String]] = []
        for line in lines {
            if line.hasPrefix("m=") {
                sections.append([line])
            } else if !sections.isEmpty {
                sections[sections.count - 1].append(line)
            }
        }
        let mids = sections.compactMap { $0.first { $0.hasPrefix("a=mid:") }.map { String($0.dropFirst(6)) } }
        var out = ["v=0", "o=- \(UInt32.random(in: 1...UInt32.max)) 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE \(mids.joined(separator: " "))"]
        let fingerprint = Self.context?.certificate.fingerprint.sdpValue ?? ""
        for section in sections {
            out.append(section[0])
            out.append("c=IN IP4 0.0.0.0")
            out += section.filter { $0.hasPrefix("a=mid:") || $0.hasPrefix("a=rtpmap:") || $0.hasPrefix("a=fmtp:") }
            if transportWide {
                out += section.filter { $0.hasPrefix("a=extmap:") && $0.hasSuffix(HeaderExtensionURI.transportWideSequenceNumber) }
                out += section.filter { $0.hasPrefix("a=rtcp-fb:") && $0.hasSuffix(" transport-cc") }
            }
            out += section.filter { $0.hasPrefix("a=rtcp-fb:") && ($0.hasSuffix(" nack") || $0.hasSuffix(" nack pli")) }
            out.append(section.contains("a=inactive") ? "a=inactive" : "a=recvonly")
            out += [
                "a=rtcp-mux", "a=ice-ufrag:\(local.ufrag)", "a=ice-pwd:\(local.password)", "a=fingerprint:\(fingerprint)", "a=setup:active",
            ]
        }
        return out.joined(separator: "\r\n") + "\r\n"
    }

    /// The transport-wide sequence number extension's id in an offer; nil when it has none.
    static func transportWideExtensionId(in offer: String) -> UInt8? {
        guard let parsed = try? SessionDescription(parsing: offer) else { return nil }
        return parsed.media.lazy.flatMap(\.extensionMaps).first { $0.uri == HeaderExtensionURI.transportWideSequenceNumber }?.id
    }

    /// One connectivity check (or consent check) to the relay's port.
    func sendCheck() -> ICEConnectivityCheck {
        let check = ICEConnectivityCheck(
            transactionID: .secureRandom(), localUfrag: local.ufrag, remoteCredentials: relayCredentials, priority: 0x6E00_1EFF,
            tieBreaker: UInt64.random(in: 1...UInt64.max), useCandidate: true)
        send(check.request())
        return check
    }

    func send(_ datagram: [UInt8]) {
        datagram.withUnsafeBytes { bytes in _ = pkr_udp_send(fd, bytes.baseAddress, UInt32(bytes.count), relayIP, relayPort) }
    }

    /// The next datagram on the socket within `milliseconds`; nil when none came.
    func receive(within milliseconds: Int) async -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if received > 0 { return Array(buffer[..<received]) }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Checks until the relay answers one, then runs the DTLS handshake; the SRTP keys, or why not.
    func connect(within seconds: Int) async throws(ToolFailure) -> DTLSSRTPKeys {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var checked = false
        while !checked {
            guard ContinuousClock.now < deadline else { throw ToolFailure(.setupFailed, "no answer to an ICE check from port \(relayPort)") }
            let check = sendCheck()
            while let reply = await receive(within: 200) {
                if case .success = check.readResponse(reply) {
                    checked = true
                    break
                }
            }
        }
        guard let context = Self.context,
            let endpoint = try? DTLSEndpoint(
                context: context, role: .client, expectedPeerFingerprints: [relayFingerprint], initialRetransmissionTimeout: .milliseconds(400))
        else { throw ToolFailure(.setupFailed, "could not set up a DTLS client") }
        var outgoing = endpoint.start().datagrams
        while ContinuousClock.now < deadline, endpoint.state.keys == nil, !endpoint.state.isFinished {
            for datagram in outgoing { send(datagram) }
            outgoing = []
            guard let incoming = await receive(within: 100) else {
                outgoing = endpoint.handleTimeout().datagrams
                continue
            }
            // A late answer to a repeated check may still arrive.
            if let first = incoming.first, first <= 3 { continue }
            outgoing = endpoint.handleDatagram(incoming).datagrams
        }
        for datagram in outgoing { send(datagram) }
        guard let keys = endpoint.state.keys else {
            throw ToolFailure(.setupFailed, "the DTLS handshake with port \(relayPort) did not finish: \(endpoint.state)")
        }
        return keys
    }
}
