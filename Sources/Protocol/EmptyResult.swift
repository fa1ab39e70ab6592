/// The result of requests that return nothing but success: `{}`.
public struct EmptyResult: Sendable, Codable, Hashable {
    public init() {}
}
