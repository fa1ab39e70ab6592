/// An `a=extmap` attribute (RFC 8285): which local identifier an RTP header extension uses,
/// such as `4 urn:ietf:params:rtp-hdrext:sdes:mid` or `2/recvonly <uri>`.
public struct SDPExtensionMap: Sendable, Hashable {
    /// The local identifier: 1...14 fit the one-byte form, up to 255 the two-byte form.
    public var id: UInt8
    /// The direction in which the extension is used, when written; otherwise it follows the
    /// section's direction.
    public var direction: SDPDirection?
    /// The URI naming the extension.
    public var uri: String
    /// Extension-specific attributes written after the URI, when any.
    public var extensionAttributes: String?

    /// Creates the attribute.
    public init(id: UInt8, direction: SDPDirection? = nil, uri: String, extensionAttributes: String? = nil) {
        self.id = id
        self.direction = direction
        self.uri = uri
        self.extensionAttributes = extensionAttributes
    }

    static let expectedForm = "'<id 1-255>[/<direction>] <extension URI> [<attributes>]'"

    /// Parses the value of an `a=extmap` attribute.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count >= 2 else { return nil }
        let (idText, directionText) = SDPText.splitOnce(fields[0], at: "/")
        guard let id = SDPText.unsigned(idText, as: UInt8.self), id > 0 else { return nil }
        var direction: SDPDirection?
        if let directionText {
            guard let parsed = SDPDirection(rawValue: String(directionText)) else { return nil }
            direction = parsed
        }
        self.init(
            id: id, direction: direction, uri: String(fields[1]),
            extensionAttributes: fields.count > 2 ? fields[2...].joined(separator: " ") : nil)
    }

    /// The value written after `a=extmap:`.
    var sdpValue: String {
        var text = direction.map { "\(id)/\($0.rawValue)" } ?? "\(id)"
        text += " \(uri)"
        if let extensionAttributes { text += " \(extensionAttributes)" }
        return text
    }
}
