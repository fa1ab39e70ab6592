/// The node that holds a room this node serves as an edge, and the room's placement epoch there.
public struct EdgeOrigin: Sendable, Hashable {
    public var node: String
    public var epoch: Int64

    public init(node: String, epoch: Int64) {
        self.node = node
        self.epoch = epoch
    }
}
