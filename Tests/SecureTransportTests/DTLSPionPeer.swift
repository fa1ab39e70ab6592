import Foundation
import SecureTransport

/// Pion's DTLS (Go), the implementation many WebRTC servers use, as a peer that supports the
/// AEAD_AES_128_GCM SRTP profile. Debian packages it (`golang-go`,
/// `golang-github-pion-dtls.v2-dev`); the small program below is built from those sources.
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

    /// The program's source.
    static let source = """
        package main

        import (
        \t"context"
        \t"crypto/sha256"
        \t"crypto/tls"
        \t"encoding/hex"
        \t"fmt"
        \t"net"
        \t"os"
        \t"time"

        \t"github.com/pion/dtls/v2"
        \t"github.com/pion/dtls/v2/pkg/crypto/selfsign"
        )

        func main() {
        \tcertificate, err := selfsign.GenerateSelfSigned()
        \tif err != nil {
        \t\tpanic(err)
        \t}
        \town := sha256.Sum256(certificate.Certificate[0])
        \tfmt.Printf("fingerprint: %s\\n", hex.EncodeToString(own[:]))
        \tconfig := &dtls.Config{
        \t\tCertificates:           []tls.Certificate{certificate},
        \t\tInsecureSkipVerify:     true,
        \t\tClientAuth:             dtls.RequireAnyClientCert,
        \t\tExtendedMasterSecret:   dtls.RequireExtendedMasterSecret,
        \t\tSRTPProtectionProfiles: []dtls.SRTPProtectionProfile{dtls.SRTP_AEAD_AES_128_GCM, dtls.SRTP_AES128_CM_HMAC_SHA1_80},
        \t\tConnectContextMaker: func() (context.Context, func()) {
        \t\t\treturn context.WithTimeout(context.Background(), 10*time.Second)
        \t\t},
        \t}
        \taddress, err := net.ResolveUDPAddr("udp", os.Args[2])
        \tif err != nil {
        \t\tpanic(err)
        \t}
        \tvar conn *dtls.Conn
        \tif os.Args[1] == "server" {
        \t\tlistener, err := dtls.Listen("udp", address, config)
        \t\tif err != nil {
        \t\t\tpanic(err)
        \t\t}
        \t\tfmt.Printf("listening: %d\\n", listener.Addr().(*net.UDPAddr).Port)
        \t\taccepted, err := listener.Accept()
        \t\tif err != nil {
        \t\t\tpanic(err)
        \t\t}
        \t\tconn = accepted.(*dtls.Conn)
        \t} else {
        \t\tconn, err = dtls.Dial("udp", address, config)
        \t\tif err != nil {
        \t\t\tpanic(err)
        \t\t}
        \t}
        \tstate := conn.ConnectionState()
        \tprofile, _ := conn.SelectedSRTPProtectionProfile()
        \tmaterial, err := state.ExportKeyingMaterial("EXTRACTOR-dtls_srtp", nil, 56)
        \tif err != nil {
        \t\tpanic(err)
        \t}
        \tpeer := sha256.Sum256(state.PeerCertificates[0])
        \tfmt.Printf("profile: %d\\nmaterial: %s\\npeer: %s\\n", profile, hex.EncodeToString(material), hex.EncodeToString(peer[:]))
        \tconn.Close()
        }

        """

    /// The child process and its scratch directory.
    let process: DTLSPeerProcess
    /// The built program.
    let programPath: String

    /// Builds the program.
    init() throws {
        process = try DTLSPeerProcess(name: "dtls-pion")
        let sourcePath = process.path("peer.go")
        programPath = process.path("peer")
        try Self.source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        // Debian's Go libraries are laid out for GOPATH mode; the build cache is kept between
        // runs so only the first build compiles pion.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("dtls-pion-go-cache").path
        try process.run(
            "go", ["build", "-o", programPath, sourcePath],
            environment: ["GO111MODULE": "off", "GOPATH": Self.goPath, "GOFLAGS": "", "GOCACHE": cache],
            within: .seconds(240))
    }

    /// Starts the program in `role` at `address`.
    func launch(_ role: DTLSRole, address: String) throws {
        try process.launch(programPath, [role == .client ? "client" : "server", address])
    }

    /// The fingerprint the program printed for its certificate, once it has.
    func fingerprint(within limit: Duration) -> DTLSFingerprint? {
        guard let text = process.waitForLine(startingWith: "fingerprint: ", within: limit) else { return nil }
        return DTLSFingerprint(algorithm: .sha256, digest: [UInt8](hex: text))
    }
}
