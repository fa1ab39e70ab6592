public import Protocol

/// Which encodings of each dual-stream publication anyone receives: a subscription bound (or
/// switching) to it in any room, a forward or PK link's mirror included, or another node's
/// subscribers through a pipe.
extension RoomEngine {
    /// Every publication with a small video, with its publisher's session and whether anyone
    /// receives each of its encodings; `wanted`: sources that count as received although nobody
    /// is bound to them (subscriptions the layer allocator moved off them while they stopped).
    public func layerDemand(wanted: Set<UInt32> = []) -> [(session: SessionID, event: SubscribedLayersChangedEvent)] {
        var bound = wanted
        for room in rooms.values {
            for member in room.members.values {
                for subscription in member.subscriptions.values {
                    if let source = subscription.bindings[.video] { bound.insert(source) }
                }
            }
        }
        for (key, pipe) in pipeSinks where pipe.bound { bound.insert(key.trackId) }
        var demand: [(session: SessionID, event: SubscribedLayersChangedEvent)] = []
        for (roomId, room) in rooms.sorted(by: { $0.key < $1.key }) {
            for member in room.orderedMembers where !member.isMirror {
                for (index, publication) in member.publications.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    guard let big = publication.track(of: .video),
                        let small = publication.video(.small)
                    else { continue }
                    let event = SubscribedLayersChangedEvent(
                        roomId: roomId, streamIndex: index, bigSubscribed: bound.contains(big.id), smallSubscribed: bound.contains(small.id),
                        mediumSubscribed: publication.video(.medium).map { bound.contains($0.id) })
                    demand.append((member.session, event))
                }
            }
        }
        return demand
    }
}
