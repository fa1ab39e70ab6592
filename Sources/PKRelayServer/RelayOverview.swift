public import MediaPlane

/// Relay-wide figures at one moment.
public struct RelayOverview: Sendable {
    public var rooms: Int
    public var users: Int
    public var publications: Int
    public var subscriptions: Int
    public var connections: Int
    public var transports: Int
    /// UDP ports of the media port range held by transports.
    public var udpPorts: Int
    public var accepting: Bool
    public var media: MediaPlaneReport
    public var forwardTargets: Int
    public var links: Int
    /// Whether media leaves with UDP generic segmentation offload (`media.gso` resolved).
    public var segmentationOffload: Bool
    /// Whether media arrives with UDP generic receive offload (`media.gro` resolved).
    public var receiveOffload: Bool
    /// Whether media sockets send through send-only twins (`media.sendOnlySockets` resolved).
    public var sendOnlySockets: Bool
    /// CPU seconds the process has used (every thread, user and system).
    public var processCPUSeconds: Double
    /// CPU cores the process may run on (its affinity mask).
    public var cpuCores: Int
    /// Each media thread's CPU seconds, in shard order.
    public var mediaThreadCPUSeconds: [Double]
    /// Video layer changes the allocator made: fallbacks and recoveries for bandwidth, and
    /// limits lifted at a subscriber's request, and moves around an encoding its publisher stopped.
    public var videoFallbacks: UInt64 = 0
    public var videoRecoveries: UInt64 = 0
    public var videoRequestedChanges: UInt64 = 0
    public var videoPublisherChanges: UInt64 = 0
    /// Subscriptions whose video is now limited to the small or medium layer, and paused (audio only).
    public var videoLimitedToSmall = 0
    public var videoLimitedToMedium = 0
    public var videoPaused = 0
    /// Rooms served here as an edge of another node ([Edges](CLUSTER.md#edges)).
    public var edgeRooms = 0
    /// Edges following the rooms this node holds (one per room and edge node).
    public var edgesFollowing = 0
}
