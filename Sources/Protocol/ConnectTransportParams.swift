/// Parameters of `connectTransport`: the client's key and, optionally, its address. Without an
/// address the transport latches to the first packet that authenticates.
public struct ConnectTransportParams: Sendable, Codable, Hashable {
    public var transportId: Int
    public var ip: String?
    public var port: Int?
    /// Base64 keying material the client encrypts with; required unless the transport is plain.
    public var srtpKey: String?
    public init(transportId: Int, ip: String? = nil, port: Int? = nil, srtpKey: String? = nil) {
        self.transportId = transportId
        self.ip = ip
        self.port = port
        self.srtpKey = srtpKey
    }
}
