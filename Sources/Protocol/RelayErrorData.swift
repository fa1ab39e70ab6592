/// The details of an error that a client acts on, such as a redirect to another node.
public struct RelayErrorData: Hashable, Sendable, Codable {
    /// The control URL to connect to instead (``ErrorCode/roomOnAnotherNode``).
    public var controlURL: String?
    /// The cluster node that serves the room.
    public var nodeId: String?

    public init(controlURL: String? = nil, nodeId: String? = nil) {
        self.controlURL = controlURL
        self.nodeId = nodeId
    }
}
