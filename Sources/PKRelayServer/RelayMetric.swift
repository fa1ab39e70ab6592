/// One metric family of /metrics: its name, what kind of series it holds and its help text.
/// The relay names every family it exports in `RelayMetric.all`, so that the help texts and
/// histogram buckets live in one place and the metrics factory can look them up by name.
struct RelayMetric: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case counter
        case gauge
        /// A histogram of seconds with these upper bounds.
        case histogram(buckets: [Double])
    }

    let name: String
    let kind: Kind
    let help: String

    static func counter(_ name: String, _ help: String) -> RelayMetric { RelayMetric(name: name, kind: .counter, help: help) }
    static func gauge(_ name: String, _ help: String) -> RelayMetric { RelayMetric(name: name, kind: .gauge, help: help) }
    static func histogram(_ name: String, _ help: String, buckets: [Double]) -> RelayMetric {
        RelayMetric(name: name, kind: .histogram(buckets: buckets), help: help)
    }
}
