/// The limits that keep one client (or one caller of the admin API) from exhausting the relay.
/// Every refusal is counted by limit in `pkrelay_limit_refusals_total{limit}`.
public enum ResourceLimit: String, CaseIterable, Sendable {
    /// `control.maxConnections`: the connection is closed with close code 1013.
    case connections
    /// `control.maxConnectionsPerAddress`: the connection is closed with close code 1013.
    case connectionsPerAddress
    /// `control.requestsPerSecond`: the frame is answered with 4029 and not executed.
    case requestRate
    /// Frames sent on while refused, beyond twice `control.requestsPerSecond` in one second: the
    /// connection is closed with close code 1008.
    case requestFlood
    /// `control.joinsPerSecond`: the join is answered with 4029.
    case joinRate
    /// `control.maxMessageBytes`: the message is answered with -32001.
    case messageSize
    /// The outbound queue per connection overflowed: the connection is closed.
    case slowReader
    /// `control.maxTransportsPerConnection`: createTransport is answered with 4008.
    case transportsPerConnection
    /// No free port in `media.portRangeStart`...`media.portRangeEnd`: createTransport is answered with 4005.
    case mediaPorts
    /// `admin.requestsPerSecond`: the call is answered with HTTP 429.
    case adminRate
    /// `admin.maxBodyBytes`: the call is answered with HTTP 413.
    case adminBody

    /// The metric label: the case name in snake case.
    public var label: String {
        switch self {
        case .connections: "connections"
        case .connectionsPerAddress: "connections_per_address"
        case .requestRate: "request_rate"
        case .requestFlood: "request_flood"
        case .joinRate: "join_rate"
        case .messageSize: "message_size"
        case .slowReader: "slow_reader"
        case .transportsPerConnection: "transports_per_connection"
        case .mediaPorts: "media_ports"
        case .adminRate: "admin_rate"
        case .adminBody: "admin_body"
        }
    }
}
