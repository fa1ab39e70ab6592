// swift-tools-version:6.1
import PackageDescription

// Micro-benchmarks of PKRelay's per-packet work, kept out of the relay's own build.
// Run: swift package --package-path Benchmarks benchmark
let package = Package(
    name: "PKRelayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "PKRelay", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "HotPath",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RTPWire", package: "PKRelay"),
                .product(name: "StreamCore", package: "PKRelay"),
                .product(name: "SecureTransport", package: "PKRelay"),
            ],
            path: "Benchmarks/HotPath",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
