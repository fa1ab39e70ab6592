import Foundation

/// An admin API answer: an HTTP status and a JSON body.
public struct AdminResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The JSON body.
    public var body: Data

    /// A JSON answer from JSON-compatible values.
    static func json(_ object: [String: Any], status: Int = 200) -> AdminResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return AdminResponse(status: status, body: data)
    }

    /// `{"error": {"code": code, "message": message}}`.
    static func error(_ status: Int, _ code: String, _ message: String) -> AdminResponse {
        json(["error": ["code": code, "message": message]], status: status)
    }
}
