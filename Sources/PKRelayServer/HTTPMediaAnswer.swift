import Protocol

/// What a WHIP or WHEP request (RFC 9725 and its egress sibling) comes to, for the HTTP layer
/// to write.
enum HTTPMediaAnswer: Sendable, Equatable {
    /// 201: the session's resource path, the relay's SDP answer and the ICE servers to name in
    /// `Link` headers.
    case created(resource: String, sdp: String, iceServers: [ICEServer])
    /// 307: the room lives on another node; the same request goes there.
    case redirect(location: String)
    /// 200 or 204 with no body (a session ended, candidates taken).
    case done
    /// 200 with a trickle-ice-sdpfrag (the relay's side of an ICE restart) and the resource's
    /// new entity tag.
    case fragment(String, etag: String)
    /// An error: the HTTP status and a sentence for the developer.
    case refused(status: Int, message: String)
}
