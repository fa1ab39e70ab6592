/// A simulated user set up in a room: its control connection and its media socket.
struct Participant: Sendable {
    let client: SimClient
    let socketId: Int
    /// The media thread that owns the socket.
    let engine: Int
    let roomIndex: Int
    let roomId: String
    /// For anchors: the id stamped into their packets.
    let publisherId: UInt32?
}
