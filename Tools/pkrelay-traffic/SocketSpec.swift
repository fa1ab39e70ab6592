import SecureTransport

/// A simulated client's media socket, opened by the control side and handed to the engine.
struct SocketSpec: Sendable {
    /// The engine's id for the socket (also its epoll token).
    var id: Int
    var fd: Int32
    /// The relay transport's address, host byte order.
    var relayIP: UInt32
    var relayPort: UInt16
    var profile: SRTPProfile
    /// The client's keying material (announced in connectTransport) and the relay's.
    var sendingKey: [UInt8]
    var relayKey: [UInt8]
    /// The room the client is in, for first-keyframe watches.
    var roomIndex: Int
    /// The SSRC the client's RTCP feedback is sent from.
    var feedbackSSRC: UInt32
    /// The header-extension id of transport-wide sequence numbers both ways (`--transport-cc`),
    /// 0 for none.
    var transportWideExtensionId: UInt8 = 0
    /// When its user asked to join (fanout audience), in the tool's monotonic microseconds: the
    /// socket's first keyframe is timed from it. 0 for none.
    var joinedAtMicroseconds: Int64 = 0
}
