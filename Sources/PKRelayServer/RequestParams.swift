/// A request message read for its `params` alone, decoded as `Params`: lets the params be
/// decoded straight from the message the client sent, without copying them out first.
/// `params` is nil when the member is missing or `null`.
struct RequestParams<Params: Decodable>: Decodable {
    var params: Params?
}
