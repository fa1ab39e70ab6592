import RTPWire
import SecureTransport

extension FuzzTarget {
    /// One certificate and context for every input: making them is the slow part of DTLS.
    static let dtlsContext: DTLSContext = {
        do {
            return try DTLSContext(certificate: DTLSCertificate())
        } catch {
            preconditionFailure("the DTLS context cannot be made: \(error)")
        }
    }()

    /// A fingerprint no peer has, so a handshake never completes and every input starts alike.
    static let dtlsPeerFingerprint = DTLSFingerprint(sdpValue: "sha-256 " + Array(repeating: "AB", count: 32).joined(separator: ":"))!

    /// The first byte picks the endpoint's role (bit 0: client, which first sends its hello);
    /// the rest is a series of datagrams, each a 2-byte big-endian length and that many bytes.
    ///
    /// Every datagram is classified as on the relay's shared WebRTC port, and those classified as
    /// DTLS go to a fresh endpoint, through the record screening and into OpenSSL. Whatever comes
    /// back must be DTLS too.
    static func runDTLS(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        let role: DTLSRole = input.byte() & 1 == 0 ? .server : .client
        guard let endpoint = try? DTLSEndpoint(context: dtlsContext, role: role, expectedPeerFingerprints: [dtlsPeerFingerprint]) else {
            preconditionFailure("a DTLS endpoint cannot be made")
        }
        checkReplies(endpoint.start())
        while input.position < input.bytes.count {
            let datagram = input.take(Int(input.uint16()))
            let kind = PacketDemultiplexer.classify(datagram)
            checkClass(kind, of: datagram)
            guard kind == .dtls else { continue }
            checkReplies(endpoint.handleDatagram(Array(datagram)))
        }
        checkReplies(endpoint.close())
    }

    /// The class matches the first byte and the minimum length of its kind (RFC 7983, RFC 5761).
    private static func checkClass(_ kind: PacketClass, of datagram: UnsafeRawBufferPointer) {
        let first = datagram.first ?? 0xFF
        switch kind {
        case .stun: precondition(first <= 3 && datagram.count >= 20, "not STUN")
        case .dtls: precondition((20...63).contains(first) && datagram.count >= 13, "not DTLS")
        case .rtp: precondition(first >> 6 == 2 && datagram.count >= 12 && !(192...223).contains(datagram[1]), "not RTP")
        case .rtcp: precondition(first >> 6 == 2 && datagram.count >= 8 && (192...223).contains(datagram[1]), "not RTCP")
        case .unknown: break
        }
    }

    private static func checkReplies(_ result: DTLSStepResult) {
        for datagram in result.datagrams {
            let kind = datagram.withUnsafeBytes { PacketDemultiplexer.classify($0) }
            precondition(kind == .dtls, "the endpoint sent something that is not DTLS")
        }
    }
}
