import Cluster
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

    @Test(arguments: [
        ("http://pk@db/x", "postgres://"), ("postgres://pk@db", "database"), ("postgres://pk@db/", "database"),
        ("postgres://db/x", "user"), ("postgres://pk@/x", "host"), ("postgres://pk@db:0/x", "port"), ("postgres://pk@db:x/x", "port"),
        ("postgres://pk@db/x?sslmode=prefer", "sslmode"), ("postgres://pk@db/x?timeout=3", "option 'timeout'"),
        ("postgres://pk@db/x?host=/tmp", "empty host"), ("postgres://pk@/x?host=relative", "empty host"),
        ("postgres://pk@/x?host=/tmp&sslmode=require", "Unix socket"), ("postgres://pk@db/x?sslmode", "NAME=VALUE"),
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
