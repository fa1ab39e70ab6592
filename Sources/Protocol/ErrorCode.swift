/// A numeric error code PKRelay reports in responses and events.
///
/// Where a commercial RTC API already has a number for the same condition, PKRelay reuses it
/// (Volcengine RTC for join and forward errors, Tencent TRTC for roles and links), so apps that
/// port a PK feature keep their error handling. Codes PKRelay adds live in the 4000-4999 range;
/// generic request errors follow JSON-RPC 2.0.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { String(rawValue) }

    // MARK: Request framing (JSON-RPC 2.0 numbers)
    /// The message is not valid JSON.
    public static let parseError = ErrorCode(-32700)
    /// The JSON is not a request object (`id` and `method` required), or is a binary frame.
    public static let invalidRequest = ErrorCode(-32600)
    /// No method of that name exists.
    public static let methodNotFound = ErrorCode(-32601)
    /// The parameters are missing, of the wrong type or out of range.
    public static let invalidParams = ErrorCode(-32602)
    /// The relay failed while handling a valid request.
    public static let internalError = ErrorCode(-32603)
    /// The message is larger than the relay accepts (64 KiB by default).
    public static let messageTooLarge = ErrorCode(-32001)
    /// The relay is shutting down and takes no new joins.
    public static let shuttingDown = ErrorCode(-32002)

    // MARK: Join and permissions (Volcengine RTC numbers)
    /// The token is malformed, its signature is wrong, its key id is unknown, or it names another room or user.
    public static let invalidToken = ErrorCode(-1000)
    /// The token has no publish grant.
    public static let noPublishPermission = ErrorCode(-1002)
    /// The token has no subscribe grant.
    public static let noSubscribePermission = ErrorCode(-1003)
    /// A later join of the same userId in the same room replaced this session.
    public static let duplicateLogin = ErrorCode(-1004)
    /// The user was removed from the room by the room server.
    public static let kickedOut = ErrorCode(-1006)
    /// The token's expiry has passed (or its not-before lies in the future).
    public static let tokenExpired = ErrorCode(-1009)
    /// The room was dismissed.
    public static let roomDismissed = ErrorCode(-1011)
    /// The subscriber is at its subscription limit.
    public static let overSubscribeLimit = ErrorCode(-1070)
    /// The room is at its publisher limit.
    public static let overPublishLimit = ErrorCode(-1080)
    /// An invisible user cannot publish.
    public static let invisibleCannotPublish = ErrorCode(-2009)
    /// The caller is an audience member; switch role to anchor first (TRTC -3330).
    public static let callerIsAudience = ErrorCode(-3330)

    // MARK: PKRelay's own
    /// The request names a room this connection has not joined.
    public static let notInRoom = ErrorCode(4001)
    /// This connection has already joined that room.
    public static let alreadyInRoom = ErrorCode(4002)
    /// No transport with that id belongs to this connection.
    public static let transportNotFound = ErrorCode(4003)
    /// The transport is in the wrong state for the call (e.g. connected twice).
    public static let transportState = ErrorCode(4004)
    /// No free media port in the configured range.
    public static let noMediaPort = ErrorCode(4005)
    /// The SRTP suite, key or codec is not supported.
    public static let unsupported = ErrorCode(4006)
    /// The stream or user named does not exist in the room.
    public static let streamNotFound = ErrorCode(4007)
    /// The connection has reached its transport limit.
    public static let tooManyTransports = ErrorCode(4008)
    /// The user cannot become visible (hidden grant, or the room's visible-user limit).
    public static let visibilityRefused = ErrorCode(4009)
    /// The call is not valid in the user's current state (e.g. unpublishing a stream not published).
    public static let wrongState = ErrorCode(4010)
    /// The connection sends requests faster than the relay accepts.
    public static let rateLimited = ErrorCode(4029)
    /// In a cluster, the room lives on another node: the error's `data.controlURL` says where to
    /// connect and join instead (a redirect).
    public static let roomOnAnotherNode = ErrorCode(4030)
    /// In a cluster, this node cannot take the room now: it holds no lease (starting, or cut off
    /// from the cluster's database). Try again shortly, or ask the room server for the placement.
    public static let clusterUnavailable = ErrorCode(4031)
    /// In a cluster, `switchRole` to anchor by a viewer that an edge node serves: anchors are
    /// served by the room's own node, which the error's `data.controlURL` names. Join there as
    /// anchor (and leave here).
    public static let moveToRoomNode = ErrorCode(4032)
    /// A forward call before startForwardStreamToRooms (reported also as UnexpectedAPICall).
    public static let forwardNotStarted = ErrorCode(4011)
    /// More forward targets than the relay allows per user (default 8).
    public static let forwardTargetLimit = ErrorCode(4012)
    /// startForwardStreamToRooms while a forward runs; use updateForwardStreamToRooms.
    public static let forwardAlreadyStarted = ErrorCode(4013)
    /// A room or user message is larger than the relay accepts.
    public static let messageTooLong = ErrorCode(4014)
    /// The token has no forward (pk) grant.
    public static let noForwardPermission = ErrorCode(4015)
    /// The DTLS handshake of a WebRTC transport failed: an alert, a certificate that does not
    /// match the SDP fingerprint, no common SRTP profile, or no answer in time.
    public static let dtlsFailed = ErrorCode(4016)
    /// ICE on a WebRTC transport failed: no valid connectivity check within 30 s of creation,
    /// or consent lapsed (no checks for 30 s).
    public static let iceFailed = ErrorCode(4017)
    /// An SDP offer or answer the relay cannot use; the message says what is wrong.
    public static let sdpRejected = ErrorCode(4018)

    // MARK: Forwarding (Volcengine ForwardStreamError numbers; also used in forward state infos)
    /// A forward target is malformed: the source room itself, listed twice, or an empty room id.
    public static let forwardInvalidArgument = ErrorCode(1201)
    /// A forward target's token is invalid, expired, for another room or user, or lacks publish.
    public static let forwardInvalidToken = ErrorCode(1202)
    /// The relay could not forward into the target room (its limits, or it was dismissed).
    public static let forwardResponse = ErrorCode(1203)
    /// A real user with the same userId is in (or joined) the target room, or the room server removed the forwarded user.
    public static let forwardRemoteKicked = ErrorCode(1204)
    /// The relay refuses forwarding.
    public static let forwardNotSupported = ErrorCode(1205)

    // MARK: PK links (Tencent TRTC numbers)
    /// A link parameter is invalid (the caller's own room, an empty id, a room already reached by a forward).
    public static let linkInvalidParameter = ErrorCode(-3328)
    /// The caller has reached its link limit.
    public static let linkLimitReached = ErrorCode(-102032)
    /// The room has no link to the named room and user.
    public static let roomHasNoLink = ErrorCode(-102042)
    /// The user started no link.
    public static let userStartedNoLink = ErrorCode(-102043)
    /// The target room does not exist.
    public static let targetRoomNotFound = ErrorCode(-102046)
    /// The target room has reached its link limit.
    public static let targetRoomLinkLimit = ErrorCode(-102047)
    /// The target user is not a visible anchor in the target room.
    public static let targetUserNotFound = ErrorCode(-102048)

    // MARK: Invitations (Agora RTM invitation API-misuse numbers)
    /// An invitation parameter is invalid (payload over 8 KiB, bad timeout, inviting yourself).
    public static let invitationInvalidArgument = ErrorCode(1)
    /// No invitation with that id (never sent, or not addressed to or from this user).
    public static let invitationNotStarted = ErrorCode(2)
    /// The invitation already ended (canceled, refused, timed out).
    public static let invitationAlreadyEnded = ErrorCode(3)
    /// The invitation was already accepted.
    public static let invitationAlreadyAccepted = ErrorCode(4)
    /// An invitation to the same user is already pending.
    public static let invitationAlreadySent = ErrorCode(5)
}
