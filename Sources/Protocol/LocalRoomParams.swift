/// Parameters of `disconnectOtherRoom`: end the caller's links (of one of its rooms, or all).
public struct LocalRoomParams: Sendable, Codable, Hashable {
    public var localRoomId: String?

    public init(localRoomId: String? = nil) {
        self.localRoomId = localRoomId
    }
}
