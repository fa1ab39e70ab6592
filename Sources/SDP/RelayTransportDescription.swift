/// The relay's side of one WebRTC transport: what its answers and offers say about ICE, DTLS
/// and the session.
///
/// The relay is ICE-lite with a host UDP candidate, with ICE-TCP a passive host TCP candidate on
/// the same address and port number (RFC 6544) at a lower priority, and with an IPv6 address the
/// same two again on it, each just below its IPv4 twin; it is always the DTLS server.
public struct RelayTransportDescription: Sendable, Hashable {
    /// The relay's ICE username fragment for this transport.
    public var iceUsernameFragment: String
    /// The relay's ICE password for this transport.
    public var icePassword: String
    /// The SHA-256 fingerprint of the certificate the relay presents.
    public var fingerprint: SDPFingerprint
    /// The address of the relay's host candidate.
    public var candidateAddress: String
    /// The UDP port of the relay's host candidate.
    public var candidatePort: UInt16
    /// Whether the relay also listens on TCP at `candidatePort` (ICE-TCP, passive).
    public var offersTCP: Bool
    /// The IPv6 address of the relay's IPv6 candidates (the same port), or nil for IPv4 only.
    public var candidateAddress6: String?
    /// The `o=` session id of the relay's descriptions.
    public var sessionID: UInt64
    /// The `o=` session version of the relay's answers; subscription offers take theirs as
    /// an argument.
    public var sessionVersion: UInt64

    /// Creates a transport description.
    public init(
        iceUsernameFragment: String, icePassword: String, fingerprint: SDPFingerprint,
        candidateAddress: String, candidatePort: UInt16, offersTCP: Bool = false, candidateAddress6: String? = nil, sessionID: UInt64,
        sessionVersion: UInt64 = 1
    ) {
        self.offersTCP = offersTCP
        self.candidateAddress6 = candidateAddress6
        self.iceUsernameFragment = iceUsernameFragment
        self.icePassword = icePassword
        self.fingerprint = fingerprint
        self.candidateAddress = candidateAddress
        self.candidatePort = candidatePort
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// The priority of the relay's IPv4 UDP candidate: host type preference 126, local
    /// preference 65535, component 1 (RFC 8445 section 5.1.2.1).
    static let hostCandidatePriority: UInt32 = (126 << 24) | (65_535 << 8) | (256 - 1)

    /// The priority of the relay's passive TCP candidate: host type preference 126 with the
    /// local preference RFC 6544 section 4.2 gives a passive host candidate (2^13 times direction
    /// preference 4, plus 8191), below the UDP candidate's, so a client whose UDP works uses it.
    static let tcpCandidatePriority: UInt32 = (126 << 24) | (((4 << 13) + 8191) << 8) | (256 - 1)

    /// The relay's host candidate.
    public var candidate: SDPCandidate {
        SDPCandidate(
            foundation: "1", component: 1, transport: "udp", priority: Self.hostCandidatePriority,
            address: candidateAddress, port: candidatePort, type: "host")
    }

    /// The priority of the relay's IPv6 UDP candidate: as the IPv4 one's, one step lower in
    /// local preference, so a dual-stack client's pairs keep the order they had before IPv6 was
    /// offered; a client with IPv6 alone pairs it all the same.
    static let hostCandidate6Priority: UInt32 = (126 << 24) | (65_534 << 8) | (256 - 1)

    /// The priority of the relay's passive IPv6 TCP candidate, just below the IPv4 one's.
    static let tcpCandidate6Priority: UInt32 = (126 << 24) | (((4 << 13) + 8190) << 8) | (256 - 1)

    /// The relay's candidates: UDP over IPv4, then over IPv6, then with ICE-TCP the passive TCP
    /// ones in the same order.
    public var candidates: [SDPCandidate] {
        var all = [candidate]
        if let candidateAddress6 {
            all.append(
                SDPCandidate(
                    foundation: "3", component: 1, transport: "udp", priority: Self.hostCandidate6Priority,
                    address: candidateAddress6, port: candidatePort, type: "host"))
        }
        guard offersTCP else { return all }
        let passive = [SDPParameter(name: "tcptype", value: "passive")]
        all.append(
            SDPCandidate(
                foundation: "2", component: 1, transport: "tcp", priority: Self.tcpCandidatePriority,
                address: candidateAddress, port: candidatePort, type: "host", extensions: passive))
        if let candidateAddress6 {
            all.append(
                SDPCandidate(
                    foundation: "4", component: 1, transport: "tcp", priority: Self.tcpCandidate6Priority,
                    address: candidateAddress6, port: candidatePort, type: "host", extensions: passive))
        }
        return all
    }

    /// Writes the relay's port, address, ICE and DTLS attributes and candidate into an
    /// accepted section.
    func describe(in media: inout MediaDescription, setup: SDPSetupRole) {
        media.port = candidatePort
        media.connection = SDPConnection(address: candidateAddress)
        media.transport = SDPTransportAttributes(
            iceUsernameFragment: iceUsernameFragment, icePassword: icePassword,
            fingerprints: [fingerprint], setup: setup)
        media.candidates = candidates
        media.isEndOfCandidates = true
    }
}
