import Protocol

/// A request's frame as read before its method is known: whether the message is an object, and
/// the kind of its `id`, `method` and `params`. Decoding fails only when the message is not valid
/// JSON (`DecodingError.dataCorrupted`) or not an object (`typeMismatch`, or `valueNotFound` for
/// `null`); the params themselves are decoded later, from the same message, by ``RequestParams``.
struct RequestEnvelope: Decodable {
    /// What the `id` member holds.
    enum Identifier: Equatable {
        /// Missing or `null`: a request without an id.
        case absent
        case valid(RequestID)
        /// Neither a whole number nor a string.
        case invalid
    }

    var id: Identifier
    /// The method's name, or nil when it is missing or not a string.
    var method: String?
    /// Whether `params` is missing, `null` (both read as an empty object) or an object.
    var paramsIsObject: Bool

    private enum Member: String, CodingKey {
        case id, method, params
    }

    /// Any member name, to look into `params` only as far as telling an object from the rest.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let message = try decoder.container(keyedBy: Member.self)
        if try !message.contains(.id) || message.decodeNil(forKey: .id) {
            id = .absent
        } else if let valid = try? message.decode(RequestID.self, forKey: .id) {
            id = .valid(valid)
        } else {
            id = .invalid
        }
        method = try? message.decode(String.self, forKey: .method)
        paramsIsObject =
            try !message.contains(.params) || message.decodeNil(forKey: .params)
            || (try? message.nestedContainer(keyedBy: AnyKey.self, forKey: .params)) != nil
    }
}
