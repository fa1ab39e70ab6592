/// A Prometheus-style cumulative histogram with fixed bucket bounds (seconds).
struct Histogram: Sendable {
    let bounds: [Double]
    private(set) var counts: [UInt64]
    private(set) var sum: Double = 0
    private(set) var count: UInt64 = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        self.counts = Array(repeating: 0, count: bounds.count)
    }

    mutating func observe(_ value: Double) {
        for (index, bound) in bounds.enumerated() where value <= bound { counts[index] += 1 }
        sum += value
        count += 1
    }

    /// The exposition lines of this histogram under `name`.
    func render(name: String, help: String, labels: String = "") -> [String] {
        let prefix = labels.isEmpty ? "" : labels + ","
        var lines = ["# HELP \(name) \(help)", "# TYPE \(name) histogram"]
        for (index, bound) in bounds.enumerated() {
            lines.append("\(name)_bucket{\(prefix)le=\"\(bound)\"} \(counts[index])")
        }
        lines.append("\(name)_bucket{\(prefix)le=\"+Inf\"} \(count)")
        let suffix = labels.isEmpty ? "" : "{\(labels)}"
        lines.append("\(name)_sum\(suffix) \(sum)")
        lines.append("\(name)_count\(suffix) \(count)")
        return lines
    }
}
