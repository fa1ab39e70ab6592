import Foundation
import PKRelayClient

#if canImport(Glibc)
    import Glibc
#endif

/// Free local UDP ports for external receivers, and a check that a process has bound them.
enum LocalPorts {
    struct NoFreePort: Error {}

    /// Two even ports p whose p+1 is also free (RTP and RTCP), from a range the relays do not use.
    static func twoFreePairs() throws -> (Int, Int) {
        var found: [Int] = []
        var candidate = 30000 + 2 * Int.random(in: 0..<2000)
        for _ in 0..<400 where found.count < 2 {
            if isFree(candidate) && isFree(candidate + 1) { found.append(candidate) }
            candidate = 30000 + (candidate - 30000 + 2) % 4000
        }
        guard found.count == 2 else { throw NoFreePort() }
        return (found[0], found[1])
    }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = INADDR_ANY
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Polls /proc/net/udp until every port in `ports` has a bound socket, and gives up at once,
    /// with its stderr, when `process` (the one meant to bind them) has exited.
    static func waitUntilBound(_ ports: [Int], by process: ExternalProcess, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let table = readWholeFile("/proc/net/udp")
            let bound = Set(
                table.split(separator: "\n").dropFirst().compactMap { line -> Int? in
                    let columns = line.split(separator: " ")
                    guard columns.count > 1, let portHex = columns[1].split(separator: ":").last else { return nil }
                    return Int(portHex, radix: 16)
                })
            if ports.allSatisfy(bound.contains) { return }
            guard process.isRunning else {
                throw TimeoutError(
                    duration: timeout, what: "ports \(ports) to be bound; the process exited (\(process.process.terminationStatus)): \(process.stderrTail)")
            }
            guard ContinuousClock.now < deadline else {
                throw TimeoutError(
                    duration: timeout,
                    what: "ports \(ports) to be bound; bound now: \(bound.filter { $0 >= 30000 && $0 < 34000 }.sorted()); stderr: \(process.stderrTail)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Reads a /proc file to its end. Foundation's readers trust the size the file reports, and
    /// /proc reports none: they return the first page only, which misses sockets once a machine
    /// has a few dozen of them.
    static func readWholeFile(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
