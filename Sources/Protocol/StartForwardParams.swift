/// Parameters of `startForwardStreamToRooms` and `updateForwardStreamToRooms` (update takes the
/// complete new target list: targets left out are removed, new ones added, tokens of kept ones
/// refreshed).
public struct StartForwardParams: Sendable, Codable, Hashable {
    public var roomId: String
    public var targets: [ForwardTargetParams]

    public init(roomId: String, targets: [ForwardTargetParams]) {
        self.roomId = roomId
        self.targets = targets
    }
}
