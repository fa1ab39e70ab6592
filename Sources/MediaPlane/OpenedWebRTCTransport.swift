/// A WebRTC transport the media plane opened: its id, and the shard it lives on with that
/// shard's WebRTC port, which goes into the client's SDP.
public struct OpenedWebRTCTransport: Sendable, Hashable {
    public var id: Int
    /// The UDP port of its shard's WebRTC socket, where its ICE checks, DTLS and media arrive.
    public var port: Int
    /// The data-plane shard that owns it.
    public var shard: Int

    public init(id: Int, port: Int, shard: Int) {
        self.id = id
        self.port = port
        self.shard = shard
    }
}
