public import Auth
public import Logging
public import MediaPlane
public import RoomEngine
public import SecureTransport

/// Every setting of the relay, with built-in defaults that need no file: loopback listeners,
/// media ports 40000-40999, SRTP required, and the development key (with a loud warning).
public struct RelayConfiguration: Sendable {
    public var controlHost = "127.0.0.1"
    public var controlPort = 7700
    public var adminHost = "127.0.0.1"
    public var adminPort = 7710
    /// Sustained admin API requests per second over all callers (bursts of twice this pass).
    public var adminRequestsPerSecond = 20
    /// Largest admin API request body; larger ones are answered with 413.
    public var adminMaxBodyBytes = 65536
    /// Largest control message accepted with an error reply; larger frames close the connection.
    public var maxMessageBytes = 65536
    public var maxTransportsPerConnection = 16
    /// Sustained control frames per second per connection (bursts of twice this are allowed).
    public var requestsPerSecond = 50
    /// Sustained joinRoom requests per second per connection (bursts of twice this are allowed):
    /// a join fans events out to the whole room, so join/leave loops are held to a human pace.
    public var joinsPerSecond = 5
    /// Control connections open at once; more are closed at once with close code 1013.
    public var maxConnections = 20000
    /// Control connections open at once from one IP address; more are closed with close code 1013.
    public var maxConnectionsPerAddress = 500
    public var allowPlainRTP = false
    /// Whether WebRTC clients are offered transport-wide congestion control: the relay reports
    /// each publisher packet's arrival back (transport-cc feedback) for the browser's send-side
    /// estimator, and stamps what it sends subscribers, whose feedback drives its estimate of
    /// their downlinks. SRTP clients take part the same way when `createTransport` names
    /// `transportWideSequenceExtensionId`. Off, a browser adapts its rate from receiver reports'
    /// loss alone, subscribers are estimated from theirs, and SRTP clients' requests are declined.
    public var congestionFeedback = true
    /// Whether the relay chooses each subscriber's video layer from its downlink's estimate: the
    /// small encoding (or, for subscribers that allow it, audio only) when the big one does not
    /// fit, and back when it does. Off, subscribers get the encoding they ask for, whatever their link.
    public var layerAllocation = true
    public var srtpProfiles: [SRTPProfile] = [.aeadAES128GCM, .aesCM128HMACSHA1_80]
    public var media = MediaPlaneConfiguration()
    public var rooms = RoomLimits()
    public var keys: [SigningKey] = []
    public var tokenLeewaySeconds: Int64 = 5
    public var logLevel: Logger.Level = .info
    public var logFormat = "text"
    public var shutdownGraceSeconds = 10
    /// Where and how events are posted to the room server.
    public var webhooks = WebhookConfiguration()
    /// The cluster this node belongs to; off by default.
    public var cluster = ClusterConfiguration()
    /// STUN and TURN servers named to WebRTC clients (`ice.servers`); none by default.
    public var iceServers: [ICEServerConfiguration] = []
    /// How long TURN credentials minted from a server's secret stay valid (`ice.credentialSeconds`).
    public var iceCredentialSeconds = 86400

    public init() {}

    /// True when no key is configured and the public development key signs tokens.
    public var usesDevelopmentKey: Bool { keys.isEmpty }

    /// The keys tokens are verified with.
    public var verificationKeys: [SigningKey] { keys.isEmpty ? [SigningKey.development] : keys }

    /// The key `pkrelay token` signs with: the first configured key.
    public var mintingKey: SigningKey { verificationKeys[0] }
}
