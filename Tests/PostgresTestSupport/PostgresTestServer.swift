public import Foundation
public import Logging
public import PostgresNIO

/// A private PostgreSQL instance for one test: initdb into a temporary directory, listening on a
/// Unix socket there only (no TCP port), stopped and removed afterwards. PostgreSQL refuses to
/// run as root, so as root it runs as the `postgres` user that Debian's package creates.
public final class PostgresTestServer: Sendable {
    let directory: URL
    let binaries: URL
    let asUser: String?

    public static let username = "pkrelay"
    public static let database = "postgres"

    /// Debian's newest installed server binaries (`/usr/lib/postgresql/<version>/bin`), or nil.
    static let installedBinaries: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap { Int($0) }.sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    public static var isAvailable: Bool { installedBinaries != nil }

    private init(directory: URL, binaries: URL, asUser: String?) {
        self.directory = directory
        self.binaries = binaries
        self.asUser = asUser
    }

    /// The socket's directory, which is what PostgreSQL's clients call the host.
    public var socketPath: String { directory.appendingPathComponent(".s.PGSQL.5432").path }

    /// The database URL a relay is configured with for this instance.
    public var databaseURL: String { "postgres://\(Self.username)@/\(Self.database)?host=\(directory.path)" }

    /// A client configuration for this instance.
    public var configuration: PostgresClient.Configuration {
        PostgresClient.Configuration(unixSocketPath: socketPath, username: Self.username, password: nil, database: Self.database)
    }

    /// Runs `body` with a fresh instance and always stops it afterwards.
    public static func with<T: Sendable>(_ body: (PostgresTestServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    public static func start() async throws -> PostgresTestServer {
        guard let binaries = installedBinaries else { throw Failure(reason: "PostgreSQL is not installed (apt-get install postgresql)") }
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("pkrelay-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let asUser: String? = getuid() == 0 ? "postgres" : nil
        if asUser != nil { _ = try await BlockingWork.run { try run("/bin/chown", ["postgres", directory.path]) } }
        let server = PostgresTestServer(directory: directory, binaries: binaries, asUser: asUser)
        let data = directory.appendingPathComponent("data").path
        try await server.runServerTool("initdb", ["-D", data, "-A", "trust", "-U", username, "-E", "UTF8", "--no-sync"])
        try await server.resume()
        return server
    }

    /// Stops the server (fast shutdown: clients are disconnected) and keeps its data, as an
    /// outage of the database would; ``resume()`` starts it again.
    public func pause() async throws {
        try await runServerTool("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"])
    }

    /// Starts the server again after ``pause()``.
    public func resume() async throws {
        try await runServerTool(
            "pg_ctl",
            [
                "-D", directory.appendingPathComponent("data").path, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "30",
                "-o", "-k \(directory.path) -c listen_addresses= -F", "start",
            ])
    }

    /// Stops the server at once (the data is thrown away) and removes its directory.
    public func stop() async {
        _ = try? await runServerTool("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs SQL on its own connection (for the tests' scripted changes of database state).
    public func execute(_ sql: String) async throws {
        let logger = Logger(label: "pkrelay.test.pg")
        let connection = try await PostgresConnection.connect(
            configuration: .init(unixSocketPath: socketPath, username: Self.username, password: nil, database: Self.database),
            id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Runs one of PostgreSQL's tools to completion on a thread of its own (see ``BlockingWork``).
    private func runServerTool(_ tool: String, _ arguments: [String]) async throws {
        let path = binaries.appendingPathComponent(tool).path
        let asUser = asUser
        _ = try await BlockingWork.run {
            if let asUser {
                try Self.run("/usr/sbin/runuser", ["-u", asUser, "--", path] + arguments)
            } else {
                try Self.run(path, arguments)
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// Runs a command to completion and throws when it fails. posix_spawn and waitpid rather than
    /// Foundation's Process: pg_ctl leaves a server running that would inherit the descriptor
    /// Process watches to see its child end, and the wait would last as long as the server.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputPath = "/tmp/pkrelay-pg-tool-\(UUID().uuidString.prefix(8)).log"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(reason: "\(executable) could not start: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else {
            throw Failure(reason: "\(executable) \(arguments.joined(separator: " ")) exited \(exitCode): \(text.suffix(600))")
        }
        return text
    }
}
