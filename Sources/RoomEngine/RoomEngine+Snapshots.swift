import Protocol

extension RoomEngine {
    /// The members of a room in joining order; nil if the room does not exist.
    public func snapshot(roomId: String) -> [MemberSnapshot]? {
        guard let room = rooms[roomId] else { return nil }
        return room.orderedMembers.map { snapshot(of: $0, roomId: roomId) }
    }

    /// The member a session is in a room.
    public func snapshot(session: SessionID, roomId: String) -> MemberSnapshot? {
        guard case .success(let member) = member(session, in: roomId) else { return nil }
        return snapshot(of: member, roomId: roomId)
    }

    func snapshot(of member: Member, roomId: String) -> MemberSnapshot {
        let subscriptions = member.subscriptions.values
            .sorted { ($0.key.publisherUserId, $0.key.streamIndex.rawValue) < ($1.key.publisherUserId, $1.key.streamIndex.rawValue) }
            .map { subscription in
                MemberSnapshot.SubscriptionView(
                    publisherUserId: subscription.key.publisherUserId, streamIndex: subscription.key.streamIndex,
                    mediaType: subscription.mediaType, sinks: [TrackKind.audio, .video].compactMap { subscription.sinks[$0] },
                    videoStreamType: subscription.deliveredVideo?.streamType, videoEnabled: subscription.deliveredVideo?.enabled)
            }
        return MemberSnapshot(
            roomId: roomId, userId: member.userId, session: member.session, role: member.role, visible: member.visible,
            tokenExpiresAt: member.grants.expiresAt, publications: member.publications.mapValues(\.tracks), subscriptions: subscriptions,
            heldBy: member.isReplica ? member.remoteNode : nil)
    }

    /// Relay-wide counts for metrics and health.
    public var totals: (rooms: Int, users: Int, publications: Int, subscriptions: Int) {
        var users = 0
        var publications = 0
        var subscriptions = 0
        for room in rooms.values {
            users += room.members.count
            for member in room.members.values {
                publications += member.publications.count
                subscriptions += member.subscriptions.count
            }
        }
        return (rooms.count, users, publications, subscriptions)
    }
}
