import Protocol
import RoomEngine

/// Webhooks derived from the engine: after each batch of actions the relay compares what
/// exists (rooms, users, streams, forwards, links) with before, and takes the reasons from the
/// batch's events (onExitRoom, onUserLeave, onUserUnpublishStream, onForwardStreamStateChanged,
/// onDisconnectOtherRoom, onInvitationStateChanged).
extension RelayCore {
    /// Queues one webhook event in relay-wide sequence.
    func postWebhook(_ type: String, roomId: String, _ data: [String: Any]) {
        guard webhooks.isEnabled else { return }
        webhookSequence += 1
        webhooks.post(type: type, roomId: roomId, sequence: webhookSequence, data: data)
    }

    /// Compares the engine with the last facts and posts the differences.
    func publishWebhooks(for actions: [EngineAction]) {
        guard webhooks.isEnabled else { return }
        let before = webhookFacts
        let after = WebhookFacts(engine: engine)
        webhookFacts = after
        let reasons = WebhookReasons(actions: actions)
        let fallback = accepting ? "disconnected" : "serverShutdown"

        let oldRooms = Set(before.rooms), newRooms = Set(after.rooms)
        for roomId in after.rooms where !oldRooms.contains(roomId) { postWebhook("room.created", roomId: roomId, ["roomId": roomId]) }

        // Joins, duplicate logins and role changes, in joining order.
        for roomId in after.rooms {
            let old = Dictionary((before.users[roomId] ?? []).map { ($0.userId, $0.presence) }, uniquingKeysWith: { first, _ in first })
            for (userId, presence) in after.users[roomId] ?? [] {
                if let previous = old[userId], previous.session == presence.session {
                    if previous.role != presence.role {
                        postWebhook("user.role_changed", roomId: roomId, ["roomId": roomId, "userId": userId, "role": presence.role.rawValue, "previousRole": previous.role.rawValue])
                    }
                    continue
                }
                if let previous = old[userId] {
                    postWebhook("user.left", roomId: roomId, ["roomId": roomId, "userId": userId, "reason": reasons.userLeft(roomId: roomId, userId: userId, session: previous.session) ?? "duplicateLogin"])
                }
                postWebhook("user.joined", roomId: roomId, ["roomId": roomId, "userId": userId, "role": presence.role.rawValue, "visible": presence.visible])
            }
        }
        for (key, mediaType) in after.streams.sorted(by: { $0.key < $1.key }) where before.streams[key] != mediaType {
            let parts = key.split(separator: " ").map(String.init)
            postWebhook("stream.published", roomId: parts[0], ["roomId": parts[0], "userId": parts[1], "streamIndex": parts[2], "mediaType": mediaType])
        }
        let oldForwards = Set(before.forwards.map(Self.forwardKey)), newForwards = Set(after.forwards.map(Self.forwardKey))
        for forward in after.forwards where !oldForwards.contains(Self.forwardKey(forward)) {
            postWebhook("forward.state_changed", roomId: forward.sourceRoomId, [
                "roomId": forward.sourceRoomId, "userId": forward.userId, "targetRoomId": forward.targetRoomId, "state": "success", "error": 0,
            ])
        }
        // Targets that failed to start never existed: the event is all there is.
        for (key, info) in reasons.forwardInfos where info.state == ForwardState.failure.rawValue && !oldForwards.contains(key) && !newForwards.contains(key) {
            let parts = key.split(separator: " ").map(String.init)
            postWebhook("forward.state_changed", roomId: parts[0], [
                "roomId": parts[0], "userId": parts[1], "targetRoomId": parts[2], "state": "failure", "error": info.error, "message": info.message ?? "",
            ])
        }
        let oldLinks = Set(before.links.map(\.id)), newLinks = Set(after.links.map(\.id))
        for link in after.links where !oldLinks.contains(link.id) {
            postWebhook("link.connected", roomId: link.callerRoomId, Self.linkData(link))
        }
        for invitation in reasons.invitations {
            var data = invitation.data
            if let session = invitation.session, let userId = engine.userId(of: session, roomId: invitation.ownRoomId) {
                data[invitation.side == "caller" ? "userId" : "peerUserId"] = userId
            }
            postWebhook("invitation.outcome", roomId: invitation.callerRoomId, data)
        }

        for (key, mediaType) in before.streams.sorted(by: { $0.key < $1.key }) where after.streams[key] == nil {
            let parts = key.split(separator: " ").map(String.init)
            postWebhook("stream.unpublished", roomId: parts[0], [
                "roomId": parts[0], "userId": parts[1], "streamIndex": parts[2], "mediaType": mediaType,
                "reason": reasons.unpublishReasons[key] ?? (accepting ? "clientDisconnected" : "serverShutdown"),
            ])
        }
        for forward in before.forwards where !newForwards.contains(Self.forwardKey(forward)) {
            let info = reasons.forwardInfos[Self.forwardKey(forward)]
            var data: [String: Any] = [
                "roomId": forward.sourceRoomId, "userId": forward.userId, "targetRoomId": forward.targetRoomId,
                "state": info?.state == ForwardState.failure.rawValue ? "failure" : "idle", "error": info?.error ?? 0,
            ]
            if let message = info?.message { data["message"] = message }
            if info == nil { data["reason"] = fallback }
            postWebhook("forward.state_changed", roomId: forward.sourceRoomId, data)
        }
        for link in before.links where !newLinks.contains(link.id) {
            var data = Self.linkData(link)
            data["reason"] = reasons.linkReason(link) ?? fallback
            postWebhook("link.disconnected", roomId: link.callerRoomId, data)
        }
        for roomId in before.rooms {
            let now = Set((after.users[roomId] ?? []).map(\.userId))
            for (userId, presence) in (before.users[roomId] ?? []).reversed() where !now.contains(userId) {
                postWebhook("user.left", roomId: roomId, ["roomId": roomId, "userId": userId, "reason": reasons.userLeft(roomId: roomId, userId: userId, session: presence.session) ?? fallback])
            }
        }
        for roomId in before.rooms where !newRooms.contains(roomId) { postWebhook("room.ended", roomId: roomId, ["roomId": roomId]) }
    }

    static func forwardKey(_ forward: ForwardSnapshot) -> String { "\(forward.sourceRoomId) \(forward.userId) \(forward.targetRoomId)" }

    static func linkData(_ link: LinkSnapshot) -> [String: Any] {
        ["roomId": link.callerRoomId, "userId": link.callerUserId, "peerRoomId": link.peerRoomId, "peerUserId": link.peerUserId, "linkId": Int(clamping: link.id)]
    }
}
