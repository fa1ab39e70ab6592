/// Result of `createTransport`: where to send media, and the key the relay encrypts with.
public struct CreateTransportResult: Sendable, Codable, Hashable {
    public var transportId: Int
    public var ip: String
    public var port: Int
    /// Absent for plain RTP transports.
    public var srtp: SRTPParameters?
    public init(transportId: Int, ip: String, port: Int, srtp: SRTPParameters?) {
        self.transportId = transportId
        self.ip = ip
        self.port = port
        self.srtp = srtp
    }
}
