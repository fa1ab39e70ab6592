import Protocol

/// What one cluster node tells another about the rooms they share, one way: the engine of the
/// node a change starts on writes it (``EngineAction/notify(_:)``, `node` naming the receiver),
/// and the receiving node's engine takes it in (``RoomEngine/receive(_:from:now:)``, `node`
/// naming the sender). The node-to-node connection carries it as it is.
public enum NodeNotice: Sendable, Hashable, Codable {
    /// Show, update or remove (`publications` nil) a user's mirror in a room of the receiver.
    case mirror(RemoteMirrorUpdate)
    /// A mirror of the receiver's user ended on the sender's side.
    case mirrorEnded(RemoteMirrorEnd)
    /// A PK link between an anchor of each node ended on the sender's side.
    case linkEnded(RemoteLinkEnd)
    /// A room or user message for members of a room on the receiver.
    case message(RemoteMessage)
    /// An invitation between an anchor of each node reached a final state on the sender's side.
    case invitation(RemoteInvitationUpdate)
    /// Whether the sender wants a track the receiver sends it over the media pipe.
    case demand(PipeDemand)
    /// Show, update or remove (`publications` nil) a visible member of a room both nodes serve:
    /// the origin's members on an edge, an edge's visible viewers at the origin.
    case replica(EdgeReplicaUpdate)
    /// The sender serves viewers of a room whose origin is the receiver: replicate its members.
    case follow(EdgeFollow)
    /// The sender's last viewer of the room left: stop replicating it there.
    case unfollow(EdgeFollow)
    /// The room ended at its origin (the sender): its viewers on the receiver leave as well.
    case edgeRoomEnded(EdgeRoomEnd)

    /// The other node: the receiver while the notice is sent, the sender once it is received.
    public var node: String {
        get {
            switch self {
            case .mirror(let update): update.node
            case .mirrorEnded(let end): end.node
            case .linkEnded(let end): end.node
            case .message(let message): message.node
            case .invitation(let update): update.node
            case .demand(let demand): demand.node
            case .replica(let update): update.node
            case .follow(let follow), .unfollow(let follow): follow.node
            case .edgeRoomEnded(let end): end.node
            }
        }
        set {
            switch self {
            case .mirror(var update):
                update.node = newValue
                self = .mirror(update)
            case .mirrorEnded(var end):
                end.node = newValue
                self = .mirrorEnded(end)
            case .linkEnded(var end):
                end.node = newValue
                self = .linkEnded(end)
            case .message(var message):
                message.node = newValue
                self = .message(message)
            case .invitation(var update):
                update.node = newValue
                self = .invitation(update)
            case .demand(var demand):
                demand.node = newValue
                self = .demand(demand)
            case .replica(var update):
                update.node = newValue
                self = .replica(update)
            case .follow(var follow):
                follow.node = newValue
                self = .follow(follow)
            case .unfollow(var follow):
                follow.node = newValue
                self = .unfollow(follow)
            case .edgeRoomEnded(var end):
                end.node = newValue
                self = .edgeRoomEnded(end)
            }
        }
    }
}
