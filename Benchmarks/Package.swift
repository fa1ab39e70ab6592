// swift-tools-version:6.1
import PackageDescription

// Micro-benchmarks of PKRelay's per-packet work, kept out of the relay's own build.
// The hot-path modules are compiled here from the relay's own sources (Modules/ links to them),
// so this package needs none of the relay's server dependencies.
// Run: swift package --package-path Benchmarks benchmark
let package = Package(
    name: "PKRelayBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        // As in the relay's release build: no dynamic exclusivity checks on the per-packet modules.
        .target(name: "RTPWire", path: "Modules/RTPWire", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        .target(name: "StreamCore", dependencies: ["RTPWire"], path: "Modules/StreamCore", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        .target(name: "CSRTP", path: "Modules/CSRTP", linkerSettings: [.linkedLibrary("srtp2")]),
        .target(name: "COpenSSLShims", path: "Modules/COpenSSLShims", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        .target(
            name: "SecureTransport", dependencies: ["CSRTP", "COpenSSLShims"], path: "Modules/SecureTransport",
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        .target(name: "CSocketShims", path: "Modules/CSocketShims"),
        .target(name: "ICE", dependencies: ["RTPWire", "SecureTransport"], path: "Modules/ICE"),
        // The media core itself: its internals are what is measured, so it is built for testing.
        .target(
            name: "MediaPlane", dependencies: ["RTPWire", "StreamCore", "SecureTransport", "ICE", "CSocketShims"], path: "Modules/MediaPlane",
            swiftSettings: [.unsafeFlags(["-enable-testing", "-enforce-exclusivity=unchecked"])]),
        // Workloads built on the real media core, shared by the benchmarks and the instruction counter.
        .target(name: "HotPathWorkloads", dependencies: ["RTPWire", "SecureTransport", "MediaPlane", "CSocketShims"]),
        // A fixed workload to run under valgrind --tool=callgrind (instructions per egress packet).
        .executableTarget(name: "ShardInstructions", dependencies: ["HotPathWorkloads", "SecureTransport"]),
        // The cross-shard hop with its two sides on two cores (CPU time per packet of each side).
        .executableTarget(name: "ShardHopAcrossCores", dependencies: ["HotPathWorkloads"]),
        // A subscriber's batch sent over UDP against over ICE-TCP (CPU time per datagram, kernel included).
        .executableTarget(name: "StreamSendCost", dependencies: ["CSocketShims"]),
        .executableTarget(
            name: "HotPath",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "RTPWire", "StreamCore", "SecureTransport", "MediaPlane", "HotPathWorkloads",
            ],
            path: "Benchmarks/HotPath",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
