import Foundation
import Testing

/// A network namespace joined to this one by a veth pair, for cluster nodes that must be cut off
/// from each other: the host end is `hostAddress`, the namespace end `innerAddress` (a /30).
/// Unix sockets (the test database's) stay reachable from inside: only the network is cut.
struct NetworkNamespace {
    let name: String
    let hostInterface: String
    let hostAddress: String
    let innerAddress: String

    static let ip = "/usr/sbin/ip"

    /// Whether namespaces can be made here (root, with iproute2).
    static var isAvailable: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: ip) }

    /// Creates the namespace and the veth pair, both ends up; `index` picks the /30 subnet.
    static func create(index: Int) throws -> NetworkNamespace {
        let tag = "\(getpid() % 10_000)\(index)"
        let space = NetworkNamespace(
            name: "pkr\(tag)", hostInterface: "pkrh\(tag)", hostAddress: "10.231.\(index).1", innerAddress: "10.231.\(index).2")
        space.destroy()
        let inner = "pkrn\(tag)"
        for command in [
            ["netns", "add", space.name],
            ["link", "add", space.hostInterface, "type", "veth", "peer", "name", inner],
            ["link", "set", inner, "netns", space.name],
            ["addr", "add", "\(space.hostAddress)/30", "dev", space.hostInterface],
            ["link", "set", space.hostInterface, "up"],
            ["netns", "exec", space.name, ip, "addr", "add", "\(space.innerAddress)/30", "dev", inner],
            ["netns", "exec", space.name, ip, "link", "set", inner, "up"],
            ["netns", "exec", space.name, ip, "link", "set", "lo", "up"],
        ] {
            try run(command)
        }
        return space
    }

    /// Cuts (false) or restores (true) the link between the namespace and this one.
    func setLink(up: Bool) throws {
        try Self.run(["link", "set", hostInterface, up ? "up" : "down"])
    }

    func destroy() {
        try? Self.run(["netns", "del", name])
        try? Self.run(["link", "del", hostInterface])
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(description: "ip \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }
}
