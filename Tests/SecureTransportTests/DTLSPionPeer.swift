import Foundation
import SecureTransport

/// Pion's DTLS (Go), the implementation many WebRTC servers use, as a peer that supports the
/// AEAD_AES_128_GCM SRTP profile. Debian packages it (`golang-go`,
/// `golang-github-pion-dtls.v2-dev`); the small program in Tests/Interop/dtls_pion_peer.go is
/// built from those sources.
///
/// The program makes its own self-signed certificate and prints `fingerprint: <hex>` at once,
/// then handshakes as `client <address>` or `server <address>` (a server prints
/// `listening: <port>` first), offering AEAD_AES_128_GCM and then AES_CM_128_HMAC_SHA1_80.
/// Afterwards it prints `profile:` (the IANA id), `material:` (the DTLS-SRTP exporter output)
/// and `peer:` (the SHA-256 of our certificate), and closes with close_notify.
final class DTLSPionPeer {
    /// Where Debian puts Go library sources.
    static let goPath = "/usr/share/gocode"

    /// Whether Go and pion's sources are installed.
    static var isAvailable: Bool {
        DTLSPeerProcess.onPath(["go"])
            && FileManager.default.fileExists(atPath: goPath + "/src/github.com/pion/dtls/v2/conn.go")
    }

    /// The program's source (`make test-deps` builds it once, into the same build cache).
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/dtls_pion_peer.go")

    /// The child process and its scratch directory.
    let process: DTLSPeerProcess
    /// The built program.
    let programPath: String

    /// Builds the program.
    init() async throws {
        process = try DTLSPeerProcess(name: "dtls-pion")
        let sourcePath = process.path("peer.go")
        programPath = process.path("peer")
        try FileManager.default.copyItem(atPath: Self.source.path, toPath: sourcePath)
        // Debian's Go libraries are laid out for GOPATH mode; the build cache is kept between
        // runs so only the first build compiles pion.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("dtls-pion-go-cache").path
        try await process.run(
            "go", ["build", "-o", programPath, sourcePath],
            environment: ["GO111MODULE": "off", "GOPATH": Self.goPath, "GOFLAGS": "", "GOCACHE": cache],
            within: .seconds(240))
    }

    /// Starts the program in `role` at `address`.
    func launch(_ role: DTLSRole, address: String) throws {
        try process.launch(programPath, [role == .client ? "client" : "server", address])
    }

    /// The fingerprint the program printed for its certificate, once it has.
    func fingerprint(within limit: Duration) async -> DTLSFingerprint? {
        guard let text = await process.waitForLine(startingWith: "fingerprint: ", within: limit) else { return nil }
        return DTLSFingerprint(algorithm: .sha256, digest: [UInt8](hex: text))
    }
}
