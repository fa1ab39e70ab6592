/// One cluster node's share of a run: what the tool put on it, and (when its admin URL was
/// given) the packet rates its /metrics showed over the measured window.
public struct NodeLoad: Sendable, Codable, Hashable {
    public var relayURL: String
    public var rooms: Int
    public var clients: Int
    public var adminURL: String?
    public var packetsPerSecondIn: Double?
    public var packetsPerSecondOut: Double?

    public init(relayURL: String, rooms: Int, clients: Int, adminURL: String? = nil, packetsPerSecondIn: Double? = nil, packetsPerSecondOut: Double? = nil) {
        self.relayURL = relayURL
        self.rooms = rooms
        self.clients = clients
        self.adminURL = adminURL
        self.packetsPerSecondIn = packetsPerSecondIn
        self.packetsPerSecondOut = packetsPerSecondOut
    }
}
