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

    /// Polls /proc/net/udp until every port in `ports` has a bound socket.
    static func waitUntilBound(_ ports: [Int], timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
            let bound = Set(table.split(separator: "\n").dropFirst().compactMap { line -> Int? in
                let columns = line.split(separator: " ")
                guard columns.count > 1, let portHex = columns[1].split(separator: ":").last else { return nil }
                return Int(portHex, radix: 16)
            })
            if ports.allSatisfy(bound.contains) { return }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: timeout, what: "ports \(ports) to be bound") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
