import Cluster
import NIOSSL
import Testing

/// The database URL forms a node is configured with, and what is refused.
struct DatabaseAddressTests {
    @Test func tcpAndSocketFormsAreRead() throws {
        let tcp = try DatabaseAddress(url: "postgres://pk:p%40ss%3Aword@db.internal:5433/pkrelay?sslmode=require")
        #expect(tcp.endpoint == .tcp(host: "db.internal", port: 5433))
        #expect(tcp.username == "pk" && tcp.password == "p@ss:word" && tcp.database == "pkrelay" && tcp.requiresTLS)
        #expect(tcp.redacted == "postgres://pk:***@db.internal:5433/pkrelay?sslmode=require")

        let plain = try DatabaseAddress(url: "postgresql://pk@10.0.0.9/cluster")
        #expect(plain.endpoint == .tcp(host: "10.0.0.9", port: 5432) && plain.password == nil && !plain.requiresTLS)

        let socket = try DatabaseAddress(url: "postgres://pk@/pkrelay?host=/var/run/postgresql")
        #expect(socket.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        let socketWithPort = try DatabaseAddress(url: "postgres://pk@:6000/pkrelay?host=/tmp")
        #expect(socketWithPort.endpoint == .unixSocket(path: "/tmp/.s.PGSQL.6000"))
    }

    @Test("an IPv6 host is written in brackets, with or without a port")
    func ipv6Hosts() throws {
        #expect(try DatabaseAddress(url: "postgres://pk@[::1]/pkrelay").endpoint == .tcp(host: "::1", port: 5432))
        let withPort = try DatabaseAddress(url: "postgres://pk@[fd00::5]:6432/pkrelay")
        #expect(withPort.endpoint == .tcp(host: "fd00::5", port: 6432))
        #expect(withPort.redacted == "postgres://pk@[fd00::5]:6432/pkrelay")
    }

    @Test("a percent sign that starts no escape is refused, never read as something else")
    func malformedEscapes() throws {
        for url in ["postgres://pk:ab%zzcd@db/x", "postgres://pk:abc%2@db/x", "postgres://pk:abc%@db/x", "postgres://pk@db/x%g1"] {
            do {
                let address = try DatabaseAddress(url: url)
                Issue.record("accepted \(url) as password \(address.password ?? "-"), database \(address.database)")
            } catch {
                #expect(error.reason.contains("not a percent-escape"), "\(url): \(error.reason)")
            }
        }
        // A real escape of a percent sign is a percent sign.
        #expect(try DatabaseAddress(url: "postgres://pk:100%25@db/x").password == "100%")
    }

    @Test("sslmode means what it means to libpq: require encrypts, verify-ca and verify-full check the certificate")
    func sslModes() throws {
        let require = try #require(try DatabaseAddress(url: "postgres://pk@db/x?sslmode=require").tlsConfiguration)
        #expect(require.certificateVerification == .none)
        let authority = try #require(try DatabaseAddress(url: "postgres://pk@db/x?sslmode=verify-ca").tlsConfiguration)
        #expect(authority.certificateVerification == .noHostnameVerification)
        let full = try DatabaseAddress(url: "postgres://pk@db/x?sslmode=verify-full&sslrootcert=/etc/pkrelay/db-ca.pem")
        #expect(full.sslMode == .verifyFull && full.rootCertificatePath == "/etc/pkrelay/db-ca.pem")
        #expect(full.tlsConfiguration?.certificateVerification == .fullVerification)
        #expect(full.tlsConfiguration?.trustRoots == .file("/etc/pkrelay/db-ca.pem"))
        #expect(full.redacted == "postgres://pk@db:5432/x?sslmode=verify-full&sslrootcert=/etc/pkrelay/db-ca.pem")
        #expect(try DatabaseAddress(url: "postgres://pk@db/x").tlsConfiguration == nil)
    }

    @Test(arguments: [
        ("http://pk@db/x", "postgres://"), ("postgres://pk@db", "database"), ("postgres://pk@db/", "database"),
        ("postgres://db/x", "user"), ("postgres://pk@/x", "host"), ("postgres://pk@db:0/x", "port"), ("postgres://pk@db:x/x", "port"),
        ("postgres://pk@db/x?sslmode=prefer", "sslmode"), ("postgres://pk@db/x?timeout=3", "option 'timeout'"),
        ("postgres://pk@db/x?host=/tmp", "empty host"), ("postgres://pk@/x?host=relative", "empty host"),
        ("postgres://pk@/x?host=/tmp&sslmode=require", "Unix socket"), ("postgres://pk@db/x?sslmode", "NAME=VALUE"),
        ("postgres://pk@::1/x", "brackets"), ("postgres://pk@[::1/x", "']'"), ("postgres://pk@[::1]x/x", ":PORT"), ("postgres://pk@[]/x", "empty IPv6"),
        ("postgres://pk@[::1]:99999/x", "port"), ("postgres://pk@db/x?sslrootcert=/ca.pem&sslmode=require", "verify-ca or verify-full"),
    ])
    func badURLsAreRefusedWithAReason(_ url: String, _ reason: String) {
        do {
            _ = try DatabaseAddress(url: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.reason.contains(reason), "\(url): \(error.reason)")
        }
    }
}
