import Foundation
import SecureTransport

/// GnuTLS's command-line tools as an independent DTLS implementation: a fresh ECDSA key and
/// self-signed certificate made with `certtool`, and `gnutls-cli` or `gnutls-serv` run as
/// a child process.
final class DTLSGnuTLSPeer {
    /// The tools the tests run; Debian's gnutls-bin package has them all.
    static let tools = ["certtool", "gnutls-cli", "gnutls-serv"]

    /// Whether every tool is installed.
    static var isAvailable: Bool {
        DTLSPeerProcess.onPath(tools)
    }

    /// The child process and its scratch directory.
    let process: DTLSPeerProcess
    /// The peer's private key (PEM).
    let keyPath: String
    /// The peer's certificate (PEM).
    let certificatePath: String
    /// The DER encoding of the peer's certificate.
    let certificateDER: [UInt8]

    /// Generates the peer's key and certificate.
    init() async throws {
        process = try DTLSPeerProcess(name: "dtls-gnutls")
        keyPath = process.path("key.pem")
        certificatePath = process.path("certificate.pem")
        let templatePath = process.path("template.cfg")
        try "cn = gnutls peer\nexpiration_days = 2\nsigning_key\ntls_www_client\ntls_www_server\n"
            .write(toFile: templatePath, atomically: true, encoding: .utf8)
        try await process.run(
            "certtool", ["--generate-privkey", "--key-type", "ecdsa", "--curve", "secp256r1", "--outfile", keyPath],
            within: .seconds(10))
        try await process.run(
            "certtool",
            ["--generate-self-signed", "--load-privkey", keyPath, "--template", templatePath, "--outfile", certificatePath],
            within: .seconds(10))
        guard let der = DTLSPeerProcess.derFromPEM(try String(contentsOfFile: certificatePath, encoding: .utf8)) else {
            throw DTLSPeerProcess.SetupError(description: "certtool wrote no readable certificate")
        }
        certificateDER = der
    }

    /// The SHA-256 fingerprint of the peer's certificate.
    var fingerprint: DTLSFingerprint {
        DTLSFingerprint(algorithm: .sha256, certificateDER: certificateDER)
    }
}
