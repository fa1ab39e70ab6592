import Protocol

/// A response whose result is decoded as `Result`.
struct TypedResponse<Result: Decodable>: Decodable {
    var result: Result?
    var error: RelayError?
}
