// swift-tools-version:6.1
import PackageDescription

/// Every PKRelay target compiles in Swift 6 language mode, which turns on complete strict
/// concurrency checking, with the upcoming features the maintained Swift server packages use:
/// `any` spelled out, a module's imports internal unless a public declaration needs them
/// (`public import`), and members visible only from modules a file imports itself.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The per-packet modules, in release builds, skip the runtime's dynamic exclusivity checks:
/// on the media path they were half of all instructions (a `swift_beginAccess` for each access
/// to a class's stored property, about fifteen per forwarded packet). Debug builds, which run
/// the tests, keep them, so an overlapping access is still caught there.
let perPacket: [SwiftSetting] =
    strict + [
        .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
    ]

let package = Package(
    name: "PKRelay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pkrelay", targets: ["pkrelay"]),
        .executable(name: "pkrelay-client", targets: ["pkrelay-client"]),
    ],
    // Exact versions: PKRelay is an application, and a build must be the build that was tested
    // (docs/ARCHITECTURE.md, "Dependencies").
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
    ],
    targets: [
        // Bytes at the bottom: RTP/RTCP/STUN parsing and serialising, standard library only.
        .target(name: "RTPWire", swiftSettings: perPacket),
        // Per-stream algorithms that take the time as an argument.
        .target(name: "StreamCore", dependencies: ["RTPWire"], swiftSettings: perPacket),
        // C libraries, wrapped once.
        .target(name: "CSRTP", linkerSettings: [.linkedLibrary("srtp2")]),
        .target(name: "COpenSSLShims", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        .target(name: "CSocketShims"),
        // Per packet too: every SRTP packet is sealed or opened here, and a session's per-SSRC
        // indices are stored properties of a class, each access to them a runtime check.
        .target(name: "SecureTransport", dependencies: ["CSRTP", "COpenSSLShims"], swiftSettings: perPacket),
        // ICE-lite: STUN binding checks answered on the data plane, consent freshness.
        .target(name: "ICE", dependencies: ["RTPWire", "SecureTransport"], swiftSettings: strict),
        // SDP parsing and the relay's WebRTC offer/answer, standard library only.
        .target(name: "SDP", swiftSettings: strict),
        // Room tokens: JWT HS256 minted by the room server, verified by the relay.
        .target(name: "Auth", dependencies: ["SecureTransport", "Protocol"], swiftSettings: strict),
        // Control-channel messages and error codes, shared by the relay and the traffic tool.
        .target(name: "Protocol", swiftSettings: strict),
        // Pure state machines for rooms, users, publications and subscriptions.
        .target(name: "RoomEngine", dependencies: ["Protocol"], swiftSettings: strict),
        // Sockets, the data-plane thread, fan-out and RTCP handling.
        .target(
            name: "MediaPlane",
            dependencies: ["RTPWire", "StreamCore", "SecureTransport", "ICE", "CSocketShims"],
            swiftSettings: perPacket
        ),
        // WebSocket sessions, tokens, configuration and the HTTP listener.
        .target(
            name: "PKRelayServer",
            dependencies: [
                "Protocol", "RoomEngine", "MediaPlane", "SecureTransport", "Auth", "CSocketShims", "ICE", "SDP", "Cluster", "Deadline", "AdminAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The browser PK demo served at /demo/ and the web SDK at /sdk/.
            resources: [.copy("Demo"), .copy("SDK")],
            swiftSettings: strict
        ),
        // The admin API's requests and answers as Codable models, described one to one by
        // docs/openapi.yaml: for the relay and for room servers written in Swift.
        .target(name: "AdminAPI", dependencies: ["Protocol"], swiftSettings: strict),
        // Cluster coordination in PostgreSQL: node leases, room placement with fencing epochs,
        // notices. Coordination only: media never goes through it.
        .target(
            name: "Cluster",
            dependencies: [
                "Protocol",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Bounded waits (withTimeout): for the client's requests and the relay's calls to the
        // cluster's database alike.
        .target(name: "Deadline", swiftSettings: strict),
        // A Swift client of the control channel and media transports: used by the tests and the
        // traffic tool, and a reference for app teams writing their own.
        .target(
            name: "PKRelayClient",
            dependencies: [
                "Protocol", "RTPWire", "SecureTransport", "CSocketShims", "Deadline",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "pkrelay",
            dependencies: [
                "PKRelayServer", "Auth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // `pkrelay-client`: publish with ffmpeg and watch with ffplay through a relay, for first
        // steps and demos.
        .executableTarget(
            name: "pkrelay-client",
            dependencies: [
                "PKRelayClient", "Protocol", "SecureTransport", "CSocketShims",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/pkrelay-client",
            swiftSettings: strict
        ),
        // A UDP forwarder that impairs what it carries (rate cap, bounded queue, delay, jitter,
        // loss), for tests of congestion control: the links as values on a scripted clock, and a
        // socket shell the Swift tests run in process.
        .target(name: "NetworkImpairment", dependencies: ["CSocketShims"], swiftSettings: strict),
        // `pkrelay-impair`: the forwarder on the command line, driven over standard input by the
        // aiortc and browser tests.
        .executableTarget(
            name: "pkrelay-impair",
            dependencies: ["NetworkImpairment", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/pkrelay-impair",
            swiftSettings: strict
        ),
        // The traffic tool's measurement logic (loss, latency, capacity search, reports, scenarios),
        // kept apart from its I/O so it is tested with scripted inputs.
        .target(
            name: "TrafficCore",
            dependencies: [
                "Protocol",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        // `pkrelay-traffic`: realistic PK load against a relay, with honest measurements.
        .executableTarget(
            name: "pkrelay-traffic",
            dependencies: [
                "TrafficCore", "PKRelayClient", "Protocol", "RTPWire", "SecureTransport", "Auth", "CSocketShims", "StreamCore", "ICE", "SDP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/pkrelay-traffic",
            exclude: ["README.md"],
            swiftSettings: strict
        ),
        // The decoders of outside input as fuzzing entry points: run by the libFuzzer executable
        // (`make fuzz`) and, over the committed corpus, by FuzzReplayTests.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "RTPWire", "StreamCore", "SecureTransport", "ICE", "SDP", "Auth", "Protocol", "RoomEngine", "MediaPlane",
                "PKRelayServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzTargets"], swiftSettings: strict),
        .testTarget(name: "TrafficCoreTests", dependencies: ["TrafficCore"], swiftSettings: strict),
        .testTarget(name: "NetworkImpairmentTests", dependencies: ["NetworkImpairment"], swiftSettings: strict),
        // A private PostgreSQL per test, for the cluster's tests.
        .target(
            name: "PostgresTestSupport",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ClusterTests",
            dependencies: [
                "Cluster", "Deadline", "PostgresTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The RFC 5769 STUN samples, shared by the STUN parser's and the ICE agent's tests.
        .target(name: "STUNTestVectors", path: "Tests/STUNTestVectors", swiftSettings: strict),
        .testTarget(name: "RTPWireTests", dependencies: ["RTPWire", "STUNTestVectors"], swiftSettings: strict),
        .testTarget(name: "StreamCoreTests", dependencies: ["StreamCore", "RTPWire", "NetworkImpairment"], swiftSettings: strict),
        .testTarget(name: "SecureTransportTests", dependencies: ["SecureTransport", "COpenSSLShims"], swiftSettings: strict),
        .testTarget(name: "ICETests", dependencies: ["ICE", "RTPWire", "SecureTransport", "STUNTestVectors"], swiftSettings: strict),
        .testTarget(name: "SDPTests", dependencies: ["SDP"], swiftSettings: strict),
        .testTarget(name: "AuthTests", dependencies: ["Auth", "Protocol"], swiftSettings: strict),
        .testTarget(
            name: "MediaPlaneTests", dependencies: ["MediaPlane", "RTPWire", "StreamCore", "SecureTransport", "CSocketShims", "NetworkImpairment"],
            swiftSettings: strict),
        .testTarget(name: "RoomEngineTests", dependencies: ["RoomEngine", "Protocol"], swiftSettings: strict),
        .testTarget(
            name: "PKRelayServerTests",
            dependencies: [
                "PKRelayServer", "PKRelayClient", "Protocol", "AdminAPI", "RTPWire", "SecureTransport", "Auth", "CSocketShims", "ICE", "PostgresTestSupport",
                "NetworkImpairment", "StreamCore",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `pkrelay-fuzz`, the libFuzzer executable, exists only for `make fuzz` (PKRELAY_FUZZ=1). PKRelay's
// own modules are built with fuzzer coverage and AddressSanitizer; dependencies are not, which
// keeps libFuzzer's per-input coverage scan small. The fuzzer runtime comes in at link time.
if Context.environment["PKRELAY_FUZZ"] == "1" {
    let sanitizers: [String] = ["-sanitize=fuzzer,address"]
    let instrumented: Set<String> = [
        "RTPWire", "StreamCore", "SecureTransport", "ICE", "SDP", "Auth", "Protocol", "RoomEngine", "MediaPlane", "PKRelayServer",
        "FuzzTargets",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitizers)]
    }
    package.targets.append(
        .executableTarget(
            name: "pkrelay-fuzz",
            dependencies: ["FuzzTargets"],
            path: "Fuzz/Driver",
            swiftSettings: strict + [.unsafeFlags(sanitizers + ["-parse-as-library"])],
            // gold fails on the fuzzer runtime's objects; lld comes with the Swift toolchain.
            linkerSettings: [.unsafeFlags(sanitizers + ["-use-ld=lld"])]
        ))
}
