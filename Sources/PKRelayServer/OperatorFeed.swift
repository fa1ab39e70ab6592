import Logging
import Protocol
import RoomEngine
import Synchronization

/// What the operator and the room server hear: every webhook, every info log about rooms and
/// every lifetime counter comes from the engine's domain events, one event at a time, in the
/// order the engine emitted them, and from nothing else.
final class OperatorFeed: Sendable {
    let logger: Logger
    /// What /metrics exports: requests, domain events, and figures copied in at each scrape.
    let metrics: RelayMetrics
    /// Webhook delivery; events are numbered in relay-wide sequence.
    let webhooks: WebhookHub
    private let webhookSequence = Mutex<UInt64>(0)

    init(logger: Logger, metrics: RelayMetrics, webhooks: WebhookHub) {
        self.logger = logger
        self.metrics = metrics
        self.webhooks = webhooks
    }

    /// Logs, counts and posts one domain event.
    func record(_ event: DomainEvent) {
        metrics.count(event)
        switch event {
        case .roomCreated(let roomId):
            logger.info("room created", metadata: ["room": "\(roomId)"])
            postWebhook("room.created", roomId: roomId, ["roomId": .string(roomId)])
        case .roomDismissed(let roomId, let reason):
            var data: [String: WebhookValue] = ["roomId": .string(roomId)]
            if let reason { data["reason"] = .string(reason) }
            postWebhook("room.dismissed", roomId: roomId, data)
        case .roomEnded(let roomId):
            logger.info("room ended", metadata: ["room": "\(roomId)"])
            postWebhook("room.ended", roomId: roomId, ["roomId": .string(roomId)])
        case .userJoined(let roomId, let userId, let session, let role, let visible, let replaced):
            var metadata: Logger.Metadata = [
                "room": "\(roomId)", "user": "\(userId)", "session": "\(session)", "role": "\(role.rawValue)", "visible": "\(visible)",
            ]
            if let replaced { metadata["replacedSession"] = "\(replaced)" }
            logger.info("user joined", metadata: metadata)
            postWebhook(
                "user.joined", roomId: roomId,
                ["roomId": .string(roomId), "userId": .string(userId), "role": .string(role.rawValue), "visible": .bool(visible)])
        case .userLeft(let roomId, let userId, let session, let reason):
            logger.info("user left", metadata: ["room": "\(roomId)", "user": "\(userId)", "session": "\(session)", "reason": "\(reason.rawValue)"])
            postWebhook("user.left", roomId: roomId, ["roomId": .string(roomId), "userId": .string(userId), "reason": .string(reason.rawValue)])
        case .userRoleChanged(let roomId, let userId, let role, let previousRole):
            logger.info("user switched role", metadata: ["room": "\(roomId)", "user": "\(userId)", "role": "\(role.rawValue)"])
            postWebhook(
                "user.role_changed", roomId: roomId,
                ["roomId": .string(roomId), "userId": .string(userId), "role": .string(role.rawValue), "previousRole": .string(previousRole.rawValue)])
        case .streamPublished(let change):
            logger.debug("stream published", metadata: ["room": "\(change.roomId)", "user": "\(change.userId)", "stream": "\(change.streamIndex.rawValue)"])
            postWebhook(
                "stream.published", roomId: change.roomId,
                [
                    "roomId": .string(change.roomId), "userId": .string(change.userId), "streamIndex": .string(change.streamIndex.rawValue),
                    "mediaType": .number(change.mediaType),
                ])
        case .streamUnpublished(let change):
            let reason = change.departure == .serverShutdown ? "serverShutdown" : Self.reasonName(change.reason ?? .other)
            logger.debug(
                "stream unpublished",
                metadata: ["room": "\(change.roomId)", "user": "\(change.userId)", "stream": "\(change.streamIndex.rawValue)", "reason": "\(reason)"])
            postWebhook(
                "stream.unpublished", roomId: change.roomId,
                [
                    "roomId": .string(change.roomId), "userId": .string(change.userId), "streamIndex": .string(change.streamIndex.rawValue),
                    "mediaType": .number(change.mediaType), "reason": .string(reason),
                ])
        case .forwardStateChanged(let change):
            recordForwardState(change)
        case .linkConnected(let link):
            logger.info("link connected", metadata: Self.linkMetadata(link))
            postWebhook("link.connected", roomId: link.callerRoomId, Self.linkData(link))
        case .linkEnded(let link, let reason):
            var metadata = Self.linkMetadata(link)
            metadata["reason"] = "\(reason)"
            logger.info("link ended", metadata: metadata)
            var data = Self.linkData(link)
            data["reason"] = .string(reason)
            postWebhook("link.disconnected", roomId: link.callerRoomId, data)
        case .invitationEnded(let outcome):
            let name = Self.outcomeName(outcome.state)
            logger.info(
                "invitation ended",
                metadata: [
                    "invite": "\(outcome.inviteId)", "room": "\(outcome.callerRoomId)", "user": "\(outcome.callerUserId)",
                    "peerRoom": "\(outcome.calleeRoomId)", "peerUser": "\(outcome.calleeUserId)", "outcome": "\(name)", "reason": "\(outcome.reason ?? "-")",
                ])
            var data: [String: WebhookValue] = [
                "inviteId": .string(outcome.inviteId), "outcome": .string(name), "roomId": .string(outcome.callerRoomId),
                "userId": .string(outcome.callerUserId), "peerRoomId": .string(outcome.calleeRoomId), "peerUserId": .string(outcome.calleeUserId),
            ]
            if let reason = outcome.reason { data["reason"] = .string(reason) }
            postWebhook("invitation.outcome", roomId: outcome.callerRoomId, data)
        case .firstKeyframe(let watch, let elapsedMs):
            logger.info(
                "forward watchable",
                metadata: [
                    "room": "\(watch.sourceRoomId)", "user": "\(watch.userId)", "target": "\(watch.targetRoomId)", "via": "\(watch.via)",
                    "elapsedMs": "\(elapsedMs)",
                ])
            postWebhook(
                "forward.first_keyframe", roomId: watch.sourceRoomId,
                [
                    "roomId": .string(watch.sourceRoomId), "userId": .string(watch.userId), "targetRoomId": .string(watch.targetRoomId),
                    "via": .string(watch.via),
                    "elapsedMs": .number(elapsedMs),
                ])
        }
    }

    private func recordForwardState(_ change: ForwardStateChange) {
        let state: String
        switch change.state {
        case .idle: state = "idle"
        case .success: state = "success"
        case .failure: state = "failure"
        }
        var metadata: Logger.Metadata = ["room": "\(change.sourceRoomId)", "user": "\(change.userId)", "target": "\(change.targetRoomId)", "state": "\(state)"]
        if change.error != 0 { metadata["error"] = "\(change.error)" }
        if let message = change.message { metadata["message"] = "\(message)" }
        if let departure = change.departure { metadata["reason"] = "\(departure.rawValue)" }
        logger.info("forward state changed", metadata: metadata)
        var data: [String: WebhookValue] = [
            "roomId": .string(change.sourceRoomId), "userId": .string(change.userId), "targetRoomId": .string(change.targetRoomId), "state": .string(state),
            "error": .number(change.error),
        ]
        if let message = change.message { data["message"] = .string(message) }
        if let departure = change.departure { data["reason"] = .string(departure.rawValue) }
        postWebhook("forward.state_changed", roomId: change.sourceRoomId, data)
    }

    /// Queues one webhook event in relay-wide sequence.
    private func postWebhook(_ type: String, roomId: String, _ data: [String: WebhookValue]) {
        guard webhooks.isEnabled else { return }
        let sequence = webhookSequence.withLock { sequence in
            sequence &+= 1
            return sequence
        }
        webhooks.post(type: type, roomId: roomId, sequence: sequence, data: data)
    }

    static func linkData(_ link: LinkSnapshot) -> [String: WebhookValue] {
        [
            "roomId": .string(link.callerRoomId), "userId": .string(link.callerUserId), "peerRoomId": .string(link.peerRoomId),
            "peerUserId": .string(link.peerUserId), "linkId": .number(link.id),
        ]
    }

    static func linkMetadata(_ link: LinkSnapshot) -> Logger.Metadata {
        [
            "link": "\(link.id)", "room": "\(link.callerRoomId)", "user": "\(link.callerUserId)", "peerRoom": "\(link.peerRoomId)",
            "peerUser": "\(link.peerUserId)",
        ]
    }

    /// The webhook name of an invitation's final state.
    static func outcomeName(_ state: InvitationState) -> String {
        switch state {
        case .accepted: "accepted"
        case .refused: "refused"
        case .canceled: "canceled"
        case .failure: "failed"
        case .idle, .sentToRemote, .receivedByRemote: "pending"
        }
    }

    /// An unpublish reason's webhook name (`unpublish`, `keepLiveFailed`, ...).
    static func reasonName(_ reason: UnpublishReason) -> String {
        switch reason {
        case .unpublish: "unpublish"
        case .publishFailed: "publishFailed"
        case .keepLiveFailed: "keepLiveFailed"
        case .clientDisconnected: "clientDisconnected"
        case .republish: "republish"
        case .other: "other"
        case .privilegeTokenExpired: "privilegeTokenExpired"
        }
    }
}
