public import RTPWire

/// The ICE side of one relay transport: an RFC 8445 lite implementation, always in the
/// controlled role, that answers the peer's connectivity checks, follows its nominations and
/// watches consent freshness (RFC 7675).
///
/// A lite agent sends no checks of its own. It learns the peer's address from valid Binding
/// requests, selects the address of the latest request that carries USE-CANDIDATE, and
/// treats every later valid request from that address as renewed consent. Time is passed
/// in as monotonic nanoseconds, so the agent is a plain value that tests drive with a
/// scripted clock.
///
/// Handling a request allocates nothing: credentials are turned into byte arrays once, when
/// the agent is made, and only read afterwards.
public struct ICELiteAgent: Sendable {
    /// This side's credentials; peers key their checks with this password.
    public private(set) var localCredentials: ICECredentials
    /// The peer's credentials, once its SDP has arrived.
    public private(set) var remoteCredentials: ICECredentials?
    /// When consent and connecting time out.
    public var timeouts: ICETimeouts
    /// Where the agent is in its life.
    public internal(set) var state: ICEConnectionState
    /// The address the controlling agent nominated last; media goes there.
    public internal(set) var selectedAddress: STUNAddress?
    /// The latest address that sent a valid check without being (or becoming) the selected
    /// one: a working pair the controlling agent has not chosen.
    public internal(set) var candidateAddress: STUNAddress?
    /// When the agent was made; the connect timeout runs from here.
    public private(set) var createdAt: UInt64
    /// When consent was last refreshed by a valid check from the selected address.
    public internal(set) var consentRefreshedAt: UInt64?

    private(set) var localUfragBytes: [UInt8]
    private(set) var localPasswordBytes: [UInt8]
    private(set) var remoteUfragBytes: [UInt8]?

    /// Creates an agent for a new transport at time `now`.
    ///
    /// - Parameter remoteCredentials: the peer's credentials when already known; until they
    ///   are, checks with any remote ufrag in their USERNAME are accepted, because a fast
    ///   peer's first checks can arrive before its SDP answer does.
    public init(
        localCredentials: ICECredentials,
        remoteCredentials: ICECredentials? = nil,
        timeouts: ICETimeouts = ICETimeouts(),
        createdAt now: UInt64
    ) {
        self.localCredentials = localCredentials
        self.remoteCredentials = remoteCredentials
        self.timeouts = timeouts
        self.state = .new
        self.createdAt = now
        self.localUfragBytes = Array(localCredentials.ufrag.utf8)
        self.localPasswordBytes = Array(localCredentials.password.utf8)
        self.remoteUfragBytes = remoteCredentials.map { Array($0.ufrag.utf8) }
    }

    /// Starts the connect timeout again from `now`, unless a pair is already nominated. The
    /// relay calls it when the peer's SDP arrives: a transport that waits for negotiation (a
    /// receiving transport with nothing to receive yet) has not failed to connect.
    public mutating func restartConnectTimer(at now: UInt64) {
        if state == .new || state == .checking { createdAt = now }
    }

    /// An ICE restart (RFC 8445 section 9): both sides' credentials are new from now on, and a
    /// check must name them. The selected pair and its consent stand, so media goes on where it
    /// went until the peer's checks with the new credentials nominate a pair (the same one, or
    /// the path of a network it moved to); consent must be refreshed under the new credentials
    /// within the consent timeout.
    public mutating func restart(localCredentials local: ICECredentials, remoteCredentials remote: ICECredentials) {
        localCredentials = local
        localUfragBytes = Array(local.ufrag.utf8)
        localPasswordBytes = Array(local.password.utf8)
        setRemoteCredentials(remote)
    }

    /// Records the peer's credentials from its SDP; from now on USERNAME must name its ufrag.
    public mutating func setRemoteCredentials(_ credentials: ICECredentials) {
        remoteCredentials = credentials
        remoteUfragBytes = Array(credentials.ufrag.utf8)
    }

    /// Whether a pair is nominated and consent is fresh.
    public var isConnected: Bool { state == .connected }

    /// The time at which `checkConsent(at:)` will report expiry if no valid check from the
    /// right address arrives first; nil once expired.
    public var expiryDeadline: UInt64? {
        switch state {
        case .new, .checking:
            return Self.saturatingSum(createdAt, timeouts.connect)
        case .connected:
            return Self.saturatingSum(consentRefreshedAt ?? createdAt, timeouts.consent)
        case .expired:
            return nil
        }
    }

    private static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
