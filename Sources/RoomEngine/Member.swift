import Protocol

/// A user in one room, through one session.
struct Member: Sendable, Hashable {
    var session: SessionID
    var userId: String
    var role: UserRole
    var visible: Bool
    var config: RoomConfig
    var grants: TokenGrants
    var expiryWarned = false
    /// Whether onTokenWillExpire was sent for the publish privilege.
    var publishExpiryWarned = false
    var publications: [StreamIndex: Publication] = [:]
    /// The last declaration of each stream, re-published by autoPublish.
    var declarations: [StreamIndex: PublishStreamParams] = [:]
    var subscriptions: [SubscriptionKey: Subscription] = [:]
    /// For a mirror (a user forwarded or linked into this room from another): the source room.
    /// Mirrors have no client in this room: they receive no events and cannot act here.
    var forwardedFrom: String?

    /// A member of the room that another node serving it holds (the origin's members on an
    /// edge, an edge's visible viewers at the origin): `remoteNode` names that node. Like a
    /// mirror it has no client here, but it keeps the `forwardedFrom` it has there.
    var isReplica = false

    var isMirror: Bool { forwardedFrom != nil || isReplica }
    /// For a mirror whose source room lives on another cluster node, or a replica: that node.
    /// Such a member changes only when that node says so.
    var remoteNode: String?

    var autoPublish: Bool { config.autoPublish ?? true }
    var autoSubscribeAudio: Bool { config.autoSubscribeAudio ?? true }
    var autoSubscribeVideo: Bool { config.autoSubscribeVideo ?? true }

    /// Publishing needs the anchor role, visibility and the publish grant.
    var canPublish: Bool { role == .anchor && visible && grants.publish }
}
