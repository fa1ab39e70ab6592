/// A relay node as the cluster knows it: where clients and other nodes reach it, and how busy it is.
public struct ClusterNode: Sendable, Hashable {
    /// The node's id (the rule of room and user ids), unique in the cluster.
    public var id: String
    /// The public control URL clients connect to, e.g. `wss://relay-2.example.com/rtc`.
    public var controlURL: String
    /// The address other nodes send media to, `host:port`.
    public var mediaAddress: String
    /// How many rooms the node is meant to hold; placement fills nodes in proportion to it.
    public var capacity: Int
    /// How many rooms the node holds now, as it last reported.
    public var load: Int

    /// Creates a node description.
    public init(id: String, controlURL: String, mediaAddress: String, capacity: Int, load: Int = 0) {
        self.id = id
        self.controlURL = controlURL
        self.mediaAddress = mediaAddress
        self.capacity = capacity
        self.load = load
    }
}
