import NetworkImpairment
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The forwarder on real UDP sockets on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct ImpairmentRelayTests {
    /// A UDP socket on 127.0.0.1 with a receive timeout.
    final class Peer {
        let fd: Int32
        let port: UInt16

        init() {
            // A local first: the closures below must not capture self before it is whole.
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            port = UInt16(bigEndian: address.sin_port)
            var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var size: Int32 = 4 << 20
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }

        deinit { close(fd) }

        func send(_ bytes: [UInt8], to port: UInt16) {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            address.sin_port = port.bigEndian
            _ = bytes.withUnsafeBytes { buffer in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }

        /// The next datagram and its sender's port, or nil after the timeout.
        func receive() -> (bytes: [UInt8], port: UInt16)? {
            var buffer = [UInt8](repeating: 0, count: 2048)
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length) }
                }
            }
            guard count >= 0 else { return nil }
            return (Array(buffer[0..<count]), UInt16(bigEndian: from.sin_port))
        }

        func receiveAll() -> [[UInt8]] {
            var all: [[UInt8]] = []
            while let datagram = receive() { all.append(datagram.bytes) }
            return all
        }
    }

    @Test func forwardsBothWaysFromAnAddressOfItsOwnPerClient() throws {
        let target = Peer()
        let relay = try ImpairmentRelay(target: "127.0.0.1", targetPort: target.port)
        defer { relay.stop() }
        let alice = Peer()
        let bob = Peer()
        alice.send([1, 2, 3], to: relay.port)
        let fromAlice = try #require(target.receive())
        #expect(fromAlice.bytes == [1, 2, 3])
        #expect(fromAlice.port != alice.port && fromAlice.port != relay.port)
        bob.send([4], to: relay.port)
        let fromBob = try #require(target.receive())
        #expect(fromBob.port != fromAlice.port)
        // Answers to each flow's address reach that client only.
        target.send([9, 9], to: fromAlice.port)
        #expect(alice.receive()?.bytes == [9, 9])
        target.send([8], to: fromBob.port)
        #expect(bob.receive()?.bytes == [8])
        #expect(relay.statistics().flows == 2)
    }

    @Test func aCappedUplinkDropsWhatItsQueueCannotHold() throws {
        let target = Peer()
        // 100 kbit/s and a 5000-byte queue: a burst of 100 datagrams of 1000 bytes keeps at most
        // the queue's five and the one the bucket lets through.
        let relay = try ImpairmentRelay(
            target: "127.0.0.1", targetPort: target.port, uplink: LinkImpairment(rateBitsPerSecond: 100_000, queueBytes: 5000))
        defer { relay.stop() }
        let client = Peer()
        for index in 0..<100 { client.send([UInt8](repeating: UInt8(index), count: 1000), to: relay.port) }
        var received: [[UInt8]] = []
        // Six datagrams at 100 kbit/s take 0.4 s; the receive timeout ends the wait after that.
        while received.count < 6, let datagram = target.receive() { received.append(datagram.bytes) }
        let statistics = relay.statistics()
        #expect(statistics.uplink.packetsIn == 100)
        #expect(statistics.uplink.droppedQueueFull >= 90)
        #expect(received.count >= 2 && received.count <= 6)
        // The first ones arrived: tail drop keeps the head of a burst.
        #expect(received.first?.first == 0)
        #expect(statistics.downlink.packetsIn == 0)
    }

    @Test func settingsChangeDuringARun() throws {
        let target = Peer()
        let relay = try ImpairmentRelay(target: "127.0.0.1", targetPort: target.port)
        defer { relay.stop() }
        let client = Peer()
        client.send([1], to: relay.port)
        #expect(target.receive()?.bytes == [1])
        relay.set(LinkImpairment(lossProbability: 1), for: .uplink)
        for _ in 0..<10 { client.send([2], to: relay.port) }
        #expect(target.receive() == nil)
        relay.set(.none, for: .uplink)
        client.send([3], to: relay.port)
        #expect(target.receive()?.bytes == [3])
        let statistics = relay.statistics()
        #expect(statistics.uplink.lostAtRandom == 10)
        #expect(statistics.uplink.packetsDelivered == 2)
    }
}
