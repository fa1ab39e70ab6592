public import AdminAPI
public import Foundation

/// An admin API answer: an HTTP status and a JSON body encoded from one of AdminAPI's models,
/// which docs/openapi.yaml describes one to one.
public struct AdminResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The JSON body.
    public var body: Data

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A 200 answer (or `status`) carrying `value`.
    static func answer<Body: Encodable>(_ value: Body, status: Int = 200) -> AdminResponse {
        // The models hold strings, numbers and lists only: encoding cannot fail.
        AdminResponse(status: status, body: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    /// `{"error": {"code": code, "message": message}}` with the code's HTTP status.
    static func error(_ code: AdminErrorCode, _ message: String) -> AdminResponse {
        answer(AdminError(error: AdminErrorDetail(code: code, message: message)), status: code.status)
    }
}
