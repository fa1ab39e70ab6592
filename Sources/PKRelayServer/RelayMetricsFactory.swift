import CoreMetrics
import Prometheus

/// swift-metrics' factory for one relay's registry: swift-prometheus' own factory, except that a
/// family the relay declares (`RelayMetric`) is registered with its help text and buckets. Each
/// relay has a registry of its own rather than the process-wide `MetricsSystem`, so that relays
/// in one process (the tests) do not count into each other.
struct RelayMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    private let fallback: PrometheusMetricsFactory

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        self.fallback = PrometheusMetricsFactory(registry: registry)
    }

    private static func descriptor(_ metric: RelayMetric) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric.name, unitName: "", helpText: metric.help)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let metric = RelayMetric.byName[label], metric.kind == .counter else { return fallback.makeCounter(label: label, dimensions: dimensions) }
        return registry.makeCounter(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        guard let metric = RelayMetric.byName[label], metric.kind == .counter else {
            return fallback.makeFloatingPointCounter(label: label, dimensions: dimensions)
        }
        return registry.makeCounter(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard let metric = RelayMetric.byName[label] else { return fallback.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate) }
        switch metric.kind {
        case .gauge: return registry.makeGauge(descriptor: Self.descriptor(metric), labels: dimensions)
        case .histogram(let buckets): return registry.makeValueHistogram(descriptor: Self.descriptor(metric), labels: dimensions, buckets: buckets)
        case .counter: return fallback.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
        }
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let metric = RelayMetric.byName[label], metric.kind == .gauge else { return fallback.makeMeter(label: label, dimensions: dimensions) }
        return registry.makeGauge(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let metric = RelayMetric.byName[label], case .histogram(let buckets) = metric.kind else {
            return fallback.makeTimer(label: label, dimensions: dimensions)
        }
        let durations = buckets.map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) }
        return registry.makeDurationHistogram(descriptor: Self.descriptor(metric), labels: dimensions, buckets: durations)
    }

    func destroyCounter(_ handler: any CounterHandler) { fallback.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { fallback.destroyFloatingPointCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { fallback.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { fallback.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { fallback.destroyTimer(handler) }
}
