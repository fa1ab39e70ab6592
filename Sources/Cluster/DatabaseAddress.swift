public import NIOSSL
public import PostgresNIO

/// Where the cluster's PostgreSQL is, read from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE[&sslrootcert=PATH]]` over TCP
/// (an IPv6 host in brackets, `[::1]`), or `postgres://USER@/DATABASE?host=/SOCKET/DIRECTORY`
/// over a Unix socket (libpq's spelling; the socket is `.s.PGSQL.PORT` in that directory).
/// Percent-escapes are decoded in the user, password, database and option values; a `%` that
/// does not start one (two hex digits) is refused, as libpq refuses it.
///
/// `sslmode` means what it means to libpq: `disable` (the default) talks in the clear,
/// `require` encrypts without checking the server's certificate, `verify-ca` also checks that a
/// trusted authority signed it, and `verify-full` also that it names the host. The authorities
/// are the system's, or those in the PEM file `sslrootcert` names.
public struct DatabaseAddress: Sendable, Hashable {
    /// How to reach the server.
    public enum Endpoint: Sendable, Hashable {
        /// `host` is a name or an address; an IPv6 address without its URL brackets.
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    /// How the connection is protected, with libpq's names and meanings.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS, without checking the server's certificate: protects against listening, not
        /// against a server that pretends.
        case require
        /// TLS with the server's certificate checked against the trusted authorities.
        case verifyCA = "verify-ca"
        /// As `verifyCA`, and the certificate must name the host connected to.
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var username: String
    public var password: String?
    public var database: String
    public var sslMode: SSLMode
    /// A PEM file of the authorities `verify-ca` and `verify-full` trust instead of the system's.
    public var rootCertificatePath: String?

    /// Whether the connection must use TLS (any `sslmode` but `disable`).
    public var requiresTLS: Bool { sslMode != .disable }

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
                options[String(parts[0])] = try Self.decode(parts[1], "option \(parts[0])")
            }
            rest = rest[..<question]
        }
        guard let slash = rest.firstIndex(of: "/") else { throw DatabaseAddressError("names no database (…/DATABASE)") }
        let database = try Self.decode(rest[rest.index(after: slash)...], "the database name")
        guard !database.isEmpty else { throw DatabaseAddressError("names no database (…/DATABASE)") }
        var authority = rest[..<slash]
        var username = ""
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                username = try Self.decode(userInfo[..<colon], "the user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "the password")
            } else {
                username = try Self.decode(userInfo, "the user")
            }
            authority = authority[authority.index(after: at)...]
        }
        guard !username.isEmpty else { throw DatabaseAddressError("names no user (postgres://USER@…)") }
        let (host, port) = try Self.hostAndPort(authority)
        guard let sslMode = SSLMode(rawValue: options.removeValue(forKey: "sslmode") ?? "disable") else {
            throw DatabaseAddressError("sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let rootCertificatePath = options.removeValue(forKey: "sslrootcert")
        let socketDirectory = options.removeValue(forKey: "host")
        if let unknown = options.keys.sorted().first { throw DatabaseAddressError("option '\(unknown)' is not supported (host, sslmode, sslrootcert)") }
        if rootCertificatePath != nil, sslMode != .verifyCA, sslMode != .verifyFull {
            throw DatabaseAddressError("sslrootcert goes with sslmode=verify-ca or verify-full, which check the certificate")
        }
        if let socketDirectory {
            guard host.isEmpty, socketDirectory.hasPrefix("/") else {
                throw DatabaseAddressError("host=/DIRECTORY (a Unix socket) goes with an empty host: postgres://USER@/DATABASE?host=/DIRECTORY")
            }
            guard sslMode == .disable else { throw DatabaseAddressError("sslmode=\(sslMode.rawValue) does not apply to a Unix socket") }
            endpoint = .unixSocket(path: "\(socketDirectory)/.s.PGSQL.\(port)")
        } else {
            guard !host.isEmpty else { throw DatabaseAddressError("names no host (postgres://USER@HOST/DATABASE, or ?host=/DIRECTORY for a socket)") }
            endpoint = .tcp(host: host, port: port)
        }
        self.username = username
        self.password = password
        self.database = database
        self.sslMode = sslMode
        self.rootCertificatePath = rootCertificatePath
    }

    /// The URL with the password hidden, for logs.
    public var redacted: String {
        let user = password == nil ? username : "\(username):***"
        switch endpoint {
        case .tcp(let host, let port):
            var options: [String] = []
            if sslMode != .disable { options.append("sslmode=\(sslMode.rawValue)") }
            if let rootCertificatePath { options.append("sslrootcert=\(rootCertificatePath)") }
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(user)@\(shownHost):\(port)/\(database)\(options.isEmpty ? "" : "?" + options.joined(separator: "&"))"
        case .unixSocket(let path):
            return "postgres://\(user)@/\(database) (socket \(path))"
        }
    }

    /// The TLS settings for this address's `sslmode`.
    public var tlsConfiguration: TLSConfiguration? {
        guard sslMode != .disable else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return nil
        case .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificatePath { tls.trustRoots = .file(rootCertificatePath) }
        return tls
    }

    /// A client configuration for this address.
    public func clientConfiguration() throws -> PostgresClient.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return PostgresClient.Configuration(unixSocketPath: path, username: username, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = tlsConfiguration.map { .require($0) } ?? .disable
            return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }

    /// The host and port of the part between `@` and `/`: `HOST`, `HOST:PORT`, `[IPv6]` or
    /// `[IPv6]:PORT`; the port is 5432 when absent. An empty host is returned empty.
    private static func hostAndPort(_ authority: Substring) throws(DatabaseAddressError) -> (String, Int) {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw DatabaseAddressError("an IPv6 host is closed with ']' ([::1])") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw DatabaseAddressError("only :PORT may follow an IPv6 host in brackets") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty else { throw DatabaseAddressError("names an empty IPv6 host ([])") }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
            if host.contains(":") { throw DatabaseAddressError("an IPv6 host goes in brackets (postgres://USER@[::1]:5432/DATABASE)") }
        }
        var port = 5432
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { throw DatabaseAddressError("port must be 1-65535") }
            port = number
        }
        return (String(host), port)
    }

    /// Decodes percent-escapes in `text`, part of the URL named `part` in the error.
    private static func decode(_ text: Substring, _ part: String) throws(DatabaseAddressError) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            else {
                let shown = String(decoding: utf8[index..<min(index + 3, utf8.count)], as: UTF8.self)
                throw DatabaseAddressError("\(part) has '\(shown)', which is not a percent-escape (% and two hex digits; write %25 for %)")
            }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
