/// The `o=` line: who created the session and which version of the description this is.
public struct SDPOrigin: Sendable, Hashable {
    /// The user name, `-` when there is none (always so in WebRTC).
    public var username: String
    /// A number identifying the session, unchanged across renegotiations.
    public var sessionID: UInt64
    /// A number that grows each time the description changes.
    public var sessionVersion: UInt64
    /// The network type, `IN`.
    public var networkType: String
    /// The address type, `IP4` or `IP6`.
    public var addressType: String
    /// The address of the creating host; WebRTC endpoints write a placeholder.
    public var address: String

    /// Creates an origin; the address defaults to the IPv4 placeholder WebRTC endpoints use.
    public init(
        username: String = "-", sessionID: UInt64, sessionVersion: UInt64,
        networkType: String = "IN", addressType: String = "IP4", address: String = "0.0.0.0"
    ) {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.networkType = networkType
        self.addressType = addressType
        self.address = address
    }

    /// What an `o=` value looks like, for error messages.
    static let expectedForm = "'<username> <session id> <session version> IN IP4|IP6 <address>' with numeric id and version"

    /// Parses the value of an `o=` line; nil when it does not have six fields or the id and
    /// version are not numbers.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 6,
            let sessionID = SDPText.unsigned(fields[1], as: UInt64.self),
            let sessionVersion = SDPText.unsigned(fields[2], as: UInt64.self)
        else { return nil }
        self.init(
            username: String(fields[0]), sessionID: sessionID, sessionVersion: sessionVersion,
            networkType: String(fields[3]), addressType: String(fields[4]), address: String(fields[5]))
    }

    /// The value written after `o=`.
    var sdpValue: String {
        "\(username) \(sessionID) \(sessionVersion) \(networkType) \(addressType) \(address)"
    }
}
