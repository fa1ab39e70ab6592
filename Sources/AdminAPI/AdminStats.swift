/// Relay-wide figures (`GET /admin/v1/stats`). OpenAPI schema `Stats`.
public struct AdminStats: Sendable, Codable, Hashable {
    public var rooms: Int
    /// Users in rooms, forwarded users included.
    public var users: Int
    public var streams: Int
    public var subscriptions: Int
    /// Forward targets.
    public var forwards: Int
    public var links: Int
    public var connections: Int
    public var transports: Int
    /// UDP ports of the media port range held by SRTP transports.
    public var udpPorts: Int
    /// False while draining for shutdown.
    public var accepting: Bool
    public var media: AdminMediaStats
    public var webhooks: AdminWebhookStats
    /// Present only on a node of a cluster.
    public var cluster: AdminClusterStats?

    /// Creates the value from its fields.
    public init(
        rooms: Int, users: Int, streams: Int, subscriptions: Int, forwards: Int, links: Int, connections: Int, transports: Int, udpPorts: Int, accepting: Bool,
        media: AdminMediaStats, webhooks: AdminWebhookStats, cluster: AdminClusterStats? = nil
    ) {
        self.rooms = rooms
        self.users = users
        self.streams = streams
        self.subscriptions = subscriptions
        self.forwards = forwards
        self.links = links
        self.connections = connections
        self.transports = transports
        self.udpPorts = udpPorts
        self.accepting = accepting
        self.media = media
        self.webhooks = webhooks
        self.cluster = cluster
    }
}
