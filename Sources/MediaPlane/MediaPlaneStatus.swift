/// What the media plane holds and how it was set up, for the relay's overview and metrics.
public struct MediaPlaneStatus: Sendable, Hashable {
    /// Open transports.
    public var transports: Int
    /// UDP ports of the media port range held by open transports (the WebRTC ports aside).
    public var udpPortsInUse: Int
    /// `media.gso` and `media.gro` resolved for this kernel.
    public var segmentationOffload: Bool
    public var receiveOffload: Bool
    /// Whether media sockets send through send-only twins.
    public var sendOnlySockets: Bool
    /// Each data-plane thread's CPU time in seconds, in shard order.
    public var threadCPUSeconds: [Double]

    public init(
        transports: Int = 0, udpPortsInUse: Int = 0, segmentationOffload: Bool = false, receiveOffload: Bool = false, sendOnlySockets: Bool = false,
        threadCPUSeconds: [Double] = []
    ) {
        self.transports = transports
        self.udpPortsInUse = udpPortsInUse
        self.segmentationOffload = segmentationOffload
        self.receiveOffload = receiveOffload
        self.sendOnlySockets = sendOnlySockets
        self.threadCPUSeconds = threadCPUSeconds
    }
}
