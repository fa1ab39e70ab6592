/// One value in a webhook event's `data`: the events carry only strings, whole numbers and
/// booleans, so a body is written directly instead of through Foundation's object graph.
enum WebhookValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)

    /// A whole number of any width, saturated to JSON-safe `Int64`.
    static func number(_ value: some BinaryInteger) -> WebhookValue {
        .integer(Int64(clamping: value))
    }
}
