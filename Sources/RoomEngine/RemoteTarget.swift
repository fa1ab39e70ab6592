/// Where a forward target room lives when another cluster node serves it: that node, and the
/// local transport of the media pipe to it (the transport the forwarded tracks leave on).
public struct RemoteTarget: Sendable, Hashable {
    public var node: String
    public var pipeTransportId: Int
    /// The target room's placement epoch, carried in every message about it.
    public var epoch: Int64

    public init(node: String, pipeTransportId: Int, epoch: Int64) {
        self.node = node
        self.pipeTransportId = pipeTransportId
        self.epoch = epoch
    }
}
