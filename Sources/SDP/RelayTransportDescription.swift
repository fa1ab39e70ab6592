/// The relay's side of one WebRTC transport: what its answers and offers say about ICE, DTLS
/// and the session.
///
/// The relay is ICE-lite with one host UDP candidate, and with ICE-TCP a passive host TCP
/// candidate on the same address and port number (RFC 6544) at a lower priority; it is always the
/// DTLS server.
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
    /// The `o=` session id of the relay's descriptions.
    public var sessionID: UInt64
    /// The `o=` session version of the relay's answers; subscription offers take theirs as
    /// an argument.
    public var sessionVersion: UInt64

    /// Creates a transport description.
    public init(
        iceUsernameFragment: String, icePassword: String, fingerprint: SDPFingerprint,
        candidateAddress: String, candidatePort: UInt16, offersTCP: Bool = false, sessionID: UInt64, sessionVersion: UInt64 = 1
    ) {
        self.offersTCP = offersTCP
        self.iceUsernameFragment = iceUsernameFragment
        self.icePassword = icePassword
        self.fingerprint = fingerprint
        self.candidateAddress = candidateAddress
        self.candidatePort = candidatePort
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// The priority of the relay's only candidate: host type preference 126, local
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

    /// The relay's candidates: the UDP one, then with ICE-TCP the passive TCP one.
    public var candidates: [SDPCandidate] {
        guard offersTCP else { return [candidate] }
        let tcp = SDPCandidate(
            foundation: "2", component: 1, transport: "tcp", priority: Self.tcpCandidatePriority,
            address: candidateAddress, port: candidatePort, type: "host", extensions: [SDPParameter(name: "tcptype", value: "passive")])
        return [candidate, tcp]
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
