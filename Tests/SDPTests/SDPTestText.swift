import SDP

/// Builders of small descriptions for attribute and error tables.
enum SDPTestText {
    /// The session part every small test description starts with.
    static let sessionLines = ["v=0", "o=- 1 1 IN IP4 0.0.0.0", "s=-", "t=0 0"]

    /// A description with one video section holding `attributes`.
    static func video(_ attributes: [String], port: String = "9") -> String {
        (sessionLines + ["m=video \(port) UDP/TLS/RTP/SAVPF 96 97", "c=IN IP4 0.0.0.0"] + attributes).joined(separator: "\r\n")
    }

    /// The only media section of `video(attributes)`, parsed.
    static func videoSection(_ attributes: [String], port: String = "9") throws -> MediaDescription {
        let description = try SessionDescription(parsing: video(attributes, port: port))
        guard let section = description.media.first else { throw SDPParseError.empty }
        return section
    }
}
