/// A `c=` line: the address media is sent to. ICE makes it informational in WebRTC, but it is
/// still written and read.
public struct SDPConnection: Sendable, Hashable {
    /// The network type, `IN`.
    public var networkType: String
    /// The address type, `IP4` or `IP6`.
    public var addressType: String
    /// The address, with any `/ttl` or `/count` suffix as written.
    public var address: String

    /// Creates a connection line for `address`, choosing `IP6` when it contains a colon.
    public init(address: String) {
        self.networkType = "IN"
        self.addressType = address.contains(":") ? "IP6" : "IP4"
        self.address = address
    }

    /// Creates a connection line from its three fields.
    public init(networkType: String, addressType: String, address: String) {
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    /// The IPv4 placeholder used in sections whose port is 0.
    public static let placeholder = SDPConnection(address: "0.0.0.0")

    /// Parses the value of a `c=` line; nil unless it has three fields.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 3 else { return nil }
        self.init(networkType: String(fields[0]), addressType: String(fields[1]), address: String(fields[2]))
    }

    /// The value written after `c=`.
    var sdpValue: String { "\(networkType) \(addressType) \(address)" }
}
