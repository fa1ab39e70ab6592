extension String {
    /// The text with its double quotes and backslashes escaped for a JSON string.
    func replacingQuote() -> String {
        var escaped = ""
        for character in self {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
