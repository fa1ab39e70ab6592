import Protocol
import RoomEngine

/// The reasons a batch of engine actions carries in its events, looked up when the facts show
/// that a user left, a stream ended, a forward target changed or a link ended.
struct WebhookReasons {
    /// An invitation that ended in the batch.
    struct InvitationOutcome {
        var callerRoomId: String
        var ownRoomId: String
        var side: String
        var session: SessionID?
        var data: [String: Any]
    }

    /// onExitRoom reasons by "session room".
    var exits: [String: String] = [:]
    /// onUserLeave reasons by "room user".
    var leaves: [String: String] = [:]
    /// onUserUnpublishStream reasons by "room user streamIndex".
    var unpublishReasons: [String: String] = [:]
    /// onForwardStreamStateChanged infos by "sourceRoom user targetRoom".
    var forwardInfos: [String: ForwardStreamStateInfo] = [:]
    /// onDisconnectOtherRoom reasons by "room peerRoom peerUser".
    var linkReasons: [String: String] = [:]
    var invitations: [InvitationOutcome] = []

    init(actions: [EngineAction]) {
        var seenInvitations = Set<String>()
        for case .event(let session, let event) in actions {
            switch event {
            case .exitRoom(let exit):
                exits["\(session) \(exit.roomId)"] = exit.code == ErrorCode.duplicateLogin.rawValue ? "duplicateLogin" : Self.name(of: exit.reason)
            case .userLeave(let leave):
                leaves["\(leave.roomId) \(leave.userId)"] = Self.name(of: leave.reason)
            case .userUnpublishStream(let unpublish):
                unpublishReasons["\(unpublish.roomId) \(unpublish.userId) \(unpublish.streamIndex.rawValue)"] = Self.name(of: unpublish.reason)
            case .forwardStreamStateChanged(let change):
                for info in change.infos { forwardInfos["\(change.roomId) \(change.userId) \(info.roomId)"] = info }
            case .disconnectOtherRoom(let end):
                let key = "\(end.roomId) \(end.peerRoomId) \(end.peerUserId)"
                if linkReasons[key] == nil || linkReasons[key] == "peerLeft" { linkReasons[key] = end.reason }
            case .invitationStateChanged(let change):
                guard let outcome = Self.outcome(change.state), seenInvitations.insert(change.inviteId).inserted else { continue }
                let isCaller = change.side == "caller"
                var data: [String: Any] = [
                    "inviteId": change.inviteId, "outcome": outcome,
                    "roomId": isCaller ? change.roomId : change.peerRoomId,
                    "peerRoomId": isCaller ? change.peerRoomId : change.roomId,
                ]
                data[isCaller ? "peerUserId" : "userId"] = change.peerUserId
                if let reason = change.reason { data["reason"] = reason }
                invitations.append(InvitationOutcome(
                    callerRoomId: isCaller ? change.roomId : change.peerRoomId, ownRoomId: change.roomId, side: change.side, session: session, data: data))
            default:
                continue
            }
        }
    }

    /// Why a user left: what it was told, else what the room saw.
    func userLeft(roomId: String, userId: String, session: SessionID) -> String? {
        if let exit = exits["\(session) \(roomId)"] { return exit }
        switch leaves["\(roomId) \(userId)"] {
        case "quit"?: return "left"
        case "kickedByAdmin"?: return "kicked"
        case "dropped"?: return "disconnected"
        case let other?: return other
        case nil: return nil
        }
    }

    /// Why a link ended: the reason either anchor was given, preferring the one not "peerLeft".
    func linkReason(_ link: LinkSnapshot) -> String? {
        let callerSide = linkReasons["\(link.callerRoomId) \(link.peerRoomId) \(link.peerUserId)"]
        let peerSide = linkReasons["\(link.peerRoomId) \(link.callerRoomId) \(link.callerUserId)"]
        let reasons = [callerSide, peerSide].compactMap { $0 }
        return reasons.first { $0 != "peerLeft" } ?? (reasons.isEmpty ? nil : "left")
    }

    static func outcome(_ state: Int) -> String? {
        switch InvitationState(rawValue: state) {
        case .accepted?: "accepted"
        case .refused?: "refused"
        case .canceled?: "canceled"
        case .failure?: "failed"
        default: nil
        }
    }

    /// The reason's case name (`kicked`, `roomDismissed`, `clientDisconnected`, ...).
    static func name(of reason: some Any) -> String { String(describing: reason) }
}
