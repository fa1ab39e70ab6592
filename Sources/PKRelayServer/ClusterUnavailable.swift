/// The cluster cannot answer a placement now (its database does not answer in time, or a room
/// that just ended here is still being released); the admin API answers 503.
struct ClusterUnavailable: Error, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
