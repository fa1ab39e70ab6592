extension SessionDescription {
    /// The description as SDP text: CRLF line endings, and a fixed attribute order so that
    /// the same description always gives the same text.
    ///
    /// Session attributes come as `ice-lite`, the ICE and DTLS attributes, `group`, the
    /// direction, `extmap-allow-mixed`, `msid-semantic`, then the others in the order they
    /// were read. See `MediaDescription.serializedLines()` for the order within sections.
    public func serialized() -> String {
        var lines = [
            "v=0",
            "o=\(origin.sdpValue)",
            "s=\(sessionName.isEmpty ? "-" : sessionName)",
        ]
        if let connection { lines.append("c=\(connection.sdpValue)") }
        lines += bandwidths.map { "b=\($0.sdpValue)" }
        lines.append("t=\(timing.sdpValue)")
        var attributes: [String] = []
        if isICELite { attributes.append("ice-lite") }
        attributes += transport.attributeLines
        attributes += groups.map { "group:\($0.sdpValue)" }
        if let direction { attributes.append(direction.rawValue) }
        if allowsMixedExtensionForms { attributes.append("extmap-allow-mixed") }
        if let msidSemantic { attributes.append("msid-semantic:\(msidSemantic.sdpValue)") }
        attributes += otherAttributes.map(\.lineValue)
        lines += attributes.map { "a=\($0)" }
        for section in media { lines += section.serializedLines() }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
