import CSocketShims
import Foundation
import ICE
import Testing

@testable import MediaPlane

/// One WebRTC port per shard: `media.webrtcPort` plus the shard's index, each read by its
/// shard, a transport placed at creation with its room and given its shard's port.
@Suite(.serialized) struct WebRTCPortTests {
    static let loopback: UInt32 = 0x7F00_0001

    static func configuration(threads: Int, webRTCPort: Int?) -> MediaPlaneConfiguration {
        var configuration = MediaPlaneConfiguration()
        configuration.threads = threads
        configuration.webRTCPort = webRTCPort
        configuration.portRange = 47_980...47_989
        configuration.segmentationOffload = .off
        configuration.receiveOffload = .off
        return configuration
    }

    /// A first port whose next `count - 1` are free now (bound and released at once).
    static func freePorts(_ count: Int) -> Int? {
        for first in stride(from: 33_000, to: 60_000, by: 97) {
            let fds = (0..<count).map { pkr_udp_open(loopback, UInt16(first + $0), 0, 0) }
            for fd in fds where fd >= 0 { _ = pkr_close(fd) }
            if fds.allSatisfy({ $0 >= 0 }) { return first }
        }
        return nil
    }

    @Test func eachShardReadsTheConfiguredPortPlusItsIndex() throws {
        let first = try #require(Self.freePorts(3))
        let plane = try MediaPlane(configuration: Self.configuration(threads: 3, webRTCPort: first))
        #expect(plane.webRTCPorts == [first, first + 1, first + 2])
        plane.start()
        plane.stop()
        // Port 0: the system chooses a port for each shard.
        let chosen = try MediaPlane(configuration: Self.configuration(threads: 2, webRTCPort: 0))
        #expect(chosen.webRTCPorts.count == 2 && Set(chosen.webRTCPorts).count == 2 && !chosen.webRTCPorts.contains(0))
        chosen.start()
        chosen.stop()
        let off = try MediaPlane(configuration: Self.configuration(threads: 2, webRTCPort: nil))
        #expect(off.webRTCPorts.isEmpty)
        off.start()
        off.stop()
    }

    @Test func aTakenPortIsNamedAndTheOthersAreReleased() throws {
        let first = try #require(Self.freePorts(2))
        let squatter = pkr_udp_open(Self.loopback, UInt16(first + 1), 0, 0)
        try #require(squatter >= 0)
        #expect(throws: MediaPlaneError.webRTCPortInUse(first + 1)) {
            _ = try MediaPlane(configuration: Self.configuration(threads: 2, webRTCPort: first))
        }
        _ = pkr_close(squatter)
        // The first shard's socket was closed with the failure: the port is free again.
        let again = pkr_udp_open(Self.loopback, UInt16(first), 0, 0)
        #expect(again >= 0)
        if again >= 0 { _ = pkr_close(again) }
        #expect(throws: MediaPlaneError.webRTCPortsOutOfRange(first: 65_535, count: 2)) {
            _ = try MediaPlane(configuration: Self.configuration(threads: 2, webRTCPort: 65_535))
        }
    }

    @Test func ipv6OpensTheSameNumbersAndNamesWhatItCannotBind() throws {
        var configuration = Self.configuration(threads: 2, webRTCPort: 0)
        configuration.bindAddress6 = "::1"
        let plane = try MediaPlane(configuration: configuration)
        #expect(plane.announcedAddress6 == "::1" && plane.webRTCSockets.allSatisfy { $0.udp6 >= 0 && $0.tcp6 >= 0 })
        // Each IPv6 socket is on its shard's number: binding it again fails.
        for port in plane.webRTCPorts {
            let again = pkr_udp_open6(0, 1, UInt16(port), 0, 0)
            #expect(again == -98, "port \(port) on ::1")
            if again >= 0 { _ = pkr_close(again) }
        }
        plane.start()
        plane.stop()

        let first = try #require(Self.freePorts(2))
        let squatter = pkr_udp_open6(0, 1, UInt16(first + 1), 0, 0)
        try #require(squatter >= 0)
        configuration.webRTCPort = first
        #expect(throws: MediaPlaneError.webRTCIPv6PortInUse(first + 1)) { _ = try MediaPlane(configuration: configuration) }
        _ = pkr_close(squatter)
        // The IPv4 sockets opened before the failure were closed with it.
        let again = pkr_udp_open(Self.loopback, UInt16(first), 0, 0)
        #expect(again >= 0)
        if again >= 0 { _ = pkr_close(again) }

        configuration.bindAddress6 = "2001:db8::1"
        #expect(throws: MediaPlaneError.unavailableIPv6Address("2001:db8::1")) { _ = try MediaPlane(configuration: configuration) }
        configuration.bindAddress6 = "localhost"
        #expect(throws: MediaPlaneError.invalidIPv6BindAddress("localhost")) { _ = try MediaPlane(configuration: configuration) }
    }

    @Test func aTransportLivesOnItsRoomsShardWithThatShardsPort() throws {
        let plane = try MediaPlane(configuration: Self.configuration(threads: 2, webRTCPort: 0))
        plane.start()
        defer { plane.stop() }
        func open(_ ufrag: String, _ group: String?) throws -> OpenedWebRTCTransport {
            try plane.openWebRTCTransport(
                credentials: ICECredentials(ufrag: ufrag, password: String(repeating: "p", count: 24)), audioLevelExtensionId: 0, group: group
            ).get()
        }
        let a = try open("aaaa", "room-a")
        let b = try open("bbbb", "room-b")
        let a2 = try open("aaa2", "room-a")
        #expect(a.shard != b.shard, "the second room goes to the less loaded shard")
        #expect(a2.shard == a.shard && a2.port == a.port)
        #expect(a.port == plane.webRTCPorts[a.shard] && b.port == plane.webRTCPorts[b.shard])
        #expect(plane.shard(ofTransport: b.id) == b.shard)
        // Opened before its join, with no room: placed at once, and its room, new, follows it.
        // An SRTP transport that waited for the same join follows it, whichever the join names first.
        let early = try open("eeee", nil)
        let waiting = try plane.openTransport(profile: nil).get()
        plane.place(transports: [waiting.id, early.id], group: "room-c")
        #expect(plane.shard(ofTransport: waiting.id) == early.shard)
        #expect(try open("ccc2", "room-c").shard == early.shard)
        #expect(plane.portsInUseCount == 1, "WebRTC transports take no port of the SRTP range, the SRTP one does")
    }

    @Test func noDatagramLeavesOnTheWebRTCSocketsNumberOnceStopped() throws {
        let plane = try MediaPlane(configuration: Self.configuration(threads: 1, webRTCPort: 0))
        plane.start()
        let opened = try plane.openWebRTCTransport(
            credentials: ICECredentials(ufrag: "stop", password: String(repeating: "p", count: 24)), audioLevelExtensionId: 0, group: "room"
        ).get()
        let closedNumber = plane.webRTCSockets[0].sendingUDP
        plane.stop()
        #expect(plane.shard(ofTransport: opened.id) == 0, "the transport is still known: only the stop keeps the send back")
        // The socket's number goes to the next socket opened (the lowest free one), here ours.
        var taken: [Int32] = []
        defer { for fd in taken where fd >= 0 { _ = pkr_close(fd) } }
        let receiver = pkr_udp_open(Self.loopback, 0, 0, 0)
        taken.append(receiver)
        while taken.count < 64, taken.last != closedNumber { taken.append(pkr_udp_open(Self.loopback, 0, 0, 0)) }
        guard taken.last == closedNumber, receiver != closedNumber else { return }
        plane.sendWebRTCDatagram(
            [0x16, 0xFE, 0xFD, 0, 0], to: PeerEndpoint(ip: Self.loopback, port: UInt16(pkr_udp_local_port(receiver))), transportId: opened.id)
        var buffer = [UInt8](repeating: 0, count: 64)
        usleep(50_000)
        let got = buffer.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(got < 0, "a DTLS record went out on a descriptor that took the stopped socket's number")
    }
}
