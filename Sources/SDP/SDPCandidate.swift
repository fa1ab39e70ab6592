/// An `a=candidate` attribute (RFC 8839): one ICE candidate address.
///
/// The relay is ICE-lite and learns the client's address from its connectivity checks, so it
/// reads remote candidates only for diagnostics; a candidate it cannot parse is kept as an
/// unknown attribute instead of failing the description.
public struct SDPCandidate: Sendable, Hashable {
    /// Groups candidates that share a base and server, for frozen-candidate logic.
    public var foundation: String
    /// The component: 1 for RTP (the only one with rtcp-mux), 2 for RTCP.
    public var component: Int
    /// The transport, `udp` or `tcp`, as written (Firefox writes `UDP`).
    public var transport: String
    /// The candidate priority.
    public var priority: UInt32
    /// The IP address or mDNS host name (`<uuid>.local`).
    public var address: String
    /// The port.
    public var port: UInt16
    /// The type: `host`, `srflx`, `prflx` or `relay`.
    public var type: String
    /// The related address of a reflexive or relayed candidate.
    public var relatedAddress: String?
    /// The related port of a reflexive or relayed candidate.
    public var relatedPort: UInt16?
    /// Further name/value pairs (`tcptype active`, `generation 0`, `network-id 1`, ...).
    public var extensions: [SDPParameter]

    /// Creates a candidate.
    public init(
        foundation: String, component: Int, transport: String, priority: UInt32, address: String, port: UInt16,
        type: String, relatedAddress: String? = nil, relatedPort: UInt16? = nil, extensions: [SDPParameter] = []
    ) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.extensions = extensions
    }

    /// Parses the value of an `a=candidate` attribute; nil when it is malformed.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count >= 8, fields[6] == "typ", SDPText.isToken(fields[0]),
            let component = SDPText.unsigned(fields[1], as: UInt8.self),
            let priority = SDPText.unsigned(fields[3], as: UInt32.self),
            let port = SDPText.unsigned(fields[5], as: UInt16.self)
        else { return nil }
        self.init(
            foundation: String(fields[0]), component: Int(component), transport: String(fields[2]),
            priority: priority, address: String(fields[4]), port: port, type: String(fields[7]))
        var index = 8
        while index < fields.count {
            let name = fields[index]
            let value = index + 1 < fields.count ? fields[index + 1] : nil
            switch name {
            case "raddr" where value != nil:
                relatedAddress = value.map(String.init)
            case "rport" where value != nil:
                guard let relatedPort = value.flatMap({ SDPText.unsigned($0, as: UInt16.self) }) else { return nil }
                self.relatedPort = relatedPort
            default:
                extensions.append(SDPParameter(name: String(name), value: value.map(String.init)))
            }
            index += 2
        }
    }

    /// The value written after `a=candidate:`.
    public var sdpValue: String {
        var fields = [foundation, String(component), transport, String(priority), address, String(port), "typ", type]
        if let relatedAddress { fields += ["raddr", relatedAddress] }
        if let relatedPort { fields += ["rport", String(relatedPort)] }
        for item in extensions {
            fields.append(item.name)
            if let value = item.value { fields.append(value) }
        }
        return fields.joined(separator: " ")
    }
}
