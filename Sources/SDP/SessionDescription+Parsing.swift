extension SessionDescription {
    /// Reads a session description.
    ///
    /// Lines may end in CRLF or LF and may carry leading or trailing blanks. Attributes the
    /// relay relies on must be well formed; unknown attributes are kept in
    /// `otherAttributes`, and candidates that cannot be read are kept there too.
    ///
    /// - Throws: `SDPParseError` naming the line and what was expected there.
    public init(parsing text: String) throws(SDPParseError) {
        self = try SDPParser.parse(text)
    }
}
