import NIOSSL
import PostgresNIO

/// Where the cluster's PostgreSQL is, read from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=require]` over TCP, or
/// `postgres://USER@/DATABASE?host=/SOCKET/DIRECTORY` over a Unix socket (libpq's spelling; the
/// socket is `.s.PGSQL.PORT` in that directory). Percent-escapes in the user and password are
/// decoded.
public struct DatabaseAddress: Sendable, Hashable {
    /// How to reach the server.
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    public var endpoint: Endpoint
    public var username: String
    public var password: String?
    public var database: String
    /// `sslmode=require`: refuse to talk without TLS (TCP only).
    public var requiresTLS: Bool

    /// Reads `url`; the error is a sentence saying what is wrong.
    public init(url: String) throws(DatabaseAddressError) {
        var rest: Substring
        if url.hasPrefix("postgres://") {
            rest = url.dropFirst("postgres://".count)
        } else if url.hasPrefix("postgresql://") {
            rest = url.dropFirst("postgresql://".count)
        } else {
            throw DatabaseAddressError("must start with postgres:// (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        var options: [String: String] = [:]
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw DatabaseAddressError("option '\(pair)' is not NAME=VALUE") }
                options[String(parts[0])] = Self.decode(parts[1])
            }
            rest = rest[..<question]
        }
        guard let slash = rest.firstIndex(of: "/") else { throw DatabaseAddressError("names no database (…/DATABASE)") }
        let database = Self.decode(rest[rest.index(after: slash)...])
        guard !database.isEmpty else { throw DatabaseAddressError("names no database (…/DATABASE)") }
        var authority = rest[..<slash]
        var username = ""
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                username = Self.decode(userInfo[..<colon])
                password = Self.decode(userInfo[userInfo.index(after: colon)...])
            } else {
                username = Self.decode(userInfo)
            }
            authority = authority[authority.index(after: at)...]
        }
        guard !username.isEmpty else { throw DatabaseAddressError("names no user (postgres://USER@…)") }
        var host = String(authority)
        var port = 5432
        if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                throw DatabaseAddressError("port must be 1-65535")
            }
            port = number
            host = String(authority[..<colon])
        }
        let requiresTLS: Bool
        switch options.removeValue(forKey: "sslmode") ?? "disable" {
        case "disable": requiresTLS = false
        case "require": requiresTLS = true
        case let other: throw DatabaseAddressError("sslmode '\(other)' is not supported (disable or require)")
        }
        let socketDirectory = options.removeValue(forKey: "host")
        if let unknown = options.keys.sorted().first { throw DatabaseAddressError("option '\(unknown)' is not supported (host, sslmode)") }
        if let socketDirectory {
            guard host.isEmpty, socketDirectory.hasPrefix("/") else {
                throw DatabaseAddressError("host=/DIRECTORY (a Unix socket) goes with an empty host: postgres://USER@/DATABASE?host=/DIRECTORY")
            }
            guard !requiresTLS else { throw DatabaseAddressError("sslmode=require does not apply to a Unix socket") }
            endpoint = .unixSocket(path: "\(socketDirectory)/.s.PGSQL.\(port)")
        } else {
            guard !host.isEmpty else { throw DatabaseAddressError("names no host (postgres://USER@HOST/DATABASE, or ?host=/DIRECTORY for a socket)") }
            endpoint = .tcp(host: host, port: port)
        }
        self.username = username
        self.password = password
        self.database = database
        self.requiresTLS = requiresTLS
    }

    /// The URL with the password hidden, for logs.
    public var redacted: String {
        let user = password == nil ? username : "\(username):***"
        switch endpoint {
        case .tcp(let host, let port): return "postgres://\(user)@\(host):\(port)/\(database)\(requiresTLS ? "?sslmode=require" : "")"
        case .unixSocket(let path): return "postgres://\(user)@/\(database) (socket \(path))"
        }
    }

    /// A client configuration for this address.
    public func clientConfiguration() throws -> PostgresClient.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return PostgresClient.Configuration(unixSocketPath: path, username: username, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = requiresTLS ? .require(TLSConfiguration.makeClientConfiguration()) : .disable
            return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
