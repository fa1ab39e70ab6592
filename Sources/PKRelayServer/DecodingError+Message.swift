/// Turns Codable's errors into messages an app developer can act on.
extension DecodingError {
    var parameterMessage: String { message(root: "params") }

    /// The message, with paths written from `root` (`params` for a request, `body` for an admin call)
    /// after leaving out the first `droppingFirst` keys of each path (those that lead to the root).
    func message(root: String, droppingFirst: Int = 0) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            var keys = Array(context.codingPath.dropFirst(droppingFirst))
            if let last { keys.append(last) }
            let rendered = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return root + rendered
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(path(context, key)) is required"
        case .typeMismatch(let type, let context):
            return "\(path(context)) must be \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) must be \(Self.describe(type)), not null"
        case .dataCorrupted(let context):
            return "\(path(context)) has an invalid value"
        @unknown default:
            return "\(root) is invalid"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt32.Type, is Int32.Type: "a whole number in range"
        case is Double.Type: "a number"
        default: "of the documented type"
        }
    }
}
