public import Protocol

/// Room and user messages: small payloads delivered as events, size- and rate-limited per user.
/// A room message marked for linked rooms reaches every room linked with the sender's room, so
/// both audiences of a PK see the same score.
extension RoomEngine {
    public mutating func sendRoomMessage(
        session: SessionID, roomId: String, payload: MessagePayload, toLinkedRooms: Bool, now: EngineTime
    ) -> EngineOutcome<EmptyResult> {
        let sender: Member
        switch checkMessage(session: session, roomId: roomId, payload: payload, now: now) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): sender = found
        }
        var actions: [EngineAction] = []
        let event = MessageReceivedEvent(roomId: roomId, fromRoomId: roomId, userId: sender.userId, message: payload.text, binary: payload.base64)
        if toLinkedRooms, edgeOrigins[roomId] != nil {
            // An edge holds none of the room's links: its members hear the message here, and the
            // origin, asked to, passes it on to the linked rooms as well as to its own members.
            for session in others(in: roomId, except: sender.userId) { actions.append(.event(session, .roomMessageReceived(event))) }
            replicateMessage(event, in: roomId, toLinkedRooms: true, into: &actions)
        } else {
            broadcast(.roomMessageReceived(event), in: roomId, except: sender.userId, into: &actions)
            if toLinkedRooms { deliverToLinkedRooms(event, of: roomId, except: sender.userId, into: &actions) }
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: actions)
    }

    /// Passes a room message of `roomId` on to every room linked with it: a linked room on
    /// another node through that node, one here through broadcast (its edges hear it too).
    mutating func deliverToLinkedRooms(_ event: MessageReceivedEvent, of roomId: String, except senderUserId: String, into actions: inout [EngineAction]) {
        for linked in linkedRooms(of: roomId) {
            var copy = event
            copy.roomId = linked
            if let node = remoteNode(ofLinkedRoom: linked) {
                actions.append(.notify(.message(RemoteMessage(node: node, roomId: linked, recipientUserId: nil, event: copy))))
                continue
            }
            broadcast(.roomMessageReceived(copy), in: linked, except: senderUserId, into: &actions)
        }
    }

    public mutating func sendUserMessage(
        session: SessionID, roomId: String, userId: String, payload: MessagePayload, now: EngineTime
    ) -> EngineOutcome<EmptyResult> {
        let sender: Member
        switch checkMessage(session: session, roomId: roomId, payload: payload, now: now) {
        case .failure(let error): return EngineOutcome(result: .failure(error), actions: [])
        case .success(let found): sender = found
        }
        guard let recipient = rooms[roomId]?.members[userId], recipient.userId != sender.userId else {
            return EngineOutcome(result: .failure(RelayError(.streamNotFound, "no user '\(userId)' in room '\(roomId)'")), actions: [])
        }
        // A member another node serving this room holds is reached through that node.
        if recipient.isReplica, let node = recipient.remoteNode {
            let event = MessageReceivedEvent(roomId: roomId, fromRoomId: roomId, userId: sender.userId, message: payload.text, binary: payload.base64)
            return EngineOutcome(
                result: .success(EmptyResult()),
                actions: [.notify(.message(RemoteMessage(node: node, roomId: roomId, recipientUserId: userId, event: event, withinRoom: true)))])
        }
        // A linked or forwarded user is reached in its own room, through its own connection.
        let deliveredRoom = recipient.forwardedFrom ?? roomId
        let event = MessageReceivedEvent(roomId: deliveredRoom, fromRoomId: roomId, userId: sender.userId, message: payload.text, binary: payload.base64)
        if let node = recipient.remoteNode {
            return EngineOutcome(
                result: .success(EmptyResult()),
                actions: [.notify(.message(RemoteMessage(node: node, roomId: deliveredRoom, recipientUserId: userId, event: event)))])
        }
        return EngineOutcome(result: .success(EmptyResult()), actions: [.event(recipient.session, .userMessageReceived(event))])
    }

    mutating func checkMessage(session: SessionID, roomId: String, payload: MessagePayload, now: EngineTime) -> Result<Member, RelayError> {
        guard case .success(let sender) = member(session, in: roomId) else { return .failure(RelayError(.notInRoom, "not joined to room '\(roomId)'")) }
        if (payload.text == nil) == (payload.base64 == nil) { return .failure(RelayError(.invalidParams, "give exactly one of message and binary")) }
        if payload.byteCount > limits.maximumMessageBytes {
            return .failure(RelayError(.messageTooLong, "message is \(payload.byteCount) bytes; the limit is \(limits.maximumMessageBytes)"))
        }
        let key = ForwardKey(roomId: roomId, userId: sender.userId)
        var bucket = messageBuckets[key] ?? MessageBucket(windowStart: now.milliseconds, count: 0)
        if now.milliseconds - bucket.windowStart >= 1000 { bucket = MessageBucket(windowStart: now.milliseconds, count: 0) }
        if bucket.count >= limits.maximumMessagesPerSecond {
            return .failure(RelayError(.rateLimited, "at most \(limits.maximumMessagesPerSecond) messages per second"))
        }
        bucket.count += 1
        messageBuckets[key] = bucket
        return .success(sender)
    }
}
