/// The `cluster:` settings. Without a `nodeId` the relay is a single node, exactly as without a
/// cluster, and needs no database.
public struct ClusterConfiguration: Sendable, Hashable {
    /// This node's id in the cluster (the rule of room ids); empty turns the cluster off.
    public var nodeId = ""
    /// The cluster's PostgreSQL (see docs/CLUSTER.md for the URL forms).
    public var databaseURL = ""
    /// The control URL clients are redirected to for rooms on this node; empty means
    /// `ws://<control.host>:<bound port>/rtc`, right only when clients reach that address directly.
    public var publicControlURL = ""
    /// How many rooms this node is meant to hold; placement fills nodes in proportion.
    public var capacity = 1000
    /// How long the node's lease lasts without renewal: a node that dies is noticed this late.
    public var leaseSeconds = 10
    /// How often the lease is renewed.
    public var renewSeconds = 2
    /// Whether this node serves audience joins for rooms another node holds, as an edge of
    /// that room: the room's members arrive over the media pipe once per watched track, and the
    /// viewer stays here instead of being redirected (docs/CLUSTER.md, "Edges").
    public var edges = false
    /// With `edges`: how many audience members of a room its own node serves before it sends
    /// further audience joins for the room to the other live nodes (4030), which serve them as
    /// edges; 0 sends none away.
    public var edgeAfterAudience = 0

    /// Creates the defaults (cluster off).
    public init() {}

    /// True when the node takes part in a cluster.
    public var isEnabled: Bool { !nodeId.isEmpty }
}
