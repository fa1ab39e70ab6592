public import CSocketShims
public import Foundation
public import Protocol
public import RTPWire
public import SecureTransport
public import Synchronization

#if canImport(Glibc)
    public import Glibc
#endif

/// One client-side media transport: a UDP socket on 127.0.0.1 (or another local IPv4 address)
/// paired with one relay transport.
///
/// It protects what it sends with its own key (announce ``localKeyBase64`` in
/// `connectTransport`) and unprotects what it receives with the relay's key (from
/// `createTransport`). A dedicated thread receives, decrypts and records every packet so tests
/// can assert on SSRCs, sequence numbers, timestamps and payloads. Simple rather than fast.
public final class MediaEndpoint: Sendable {
    /// The relay transport this endpoint talks to.
    public let transportId: Int
    /// The SRTP profile; nil for plain RTP.
    public let profile: SRTPProfile?
    /// The keying material this endpoint encrypts with.
    public let localKey: [UInt8]
    /// The local address and port the socket is bound to.
    public let localHost: String
    public let localPort: Int
    /// Where packets go: the relay transport's address.
    public let relayHost: String
    public let relayPort: Int

    let fd: Int32
    let relayIP: UInt32
    private let crypto: Mutex<EndpointCrypto>
    private let reception = Mutex(EndpointReception())
    private let running = Atomic<Bool>(true)
    private let stopped = DispatchSemaphore(value: 0)

    /// Opens an endpoint for a transport the relay created.
    ///
    /// - Parameters:
    ///   - transport: The result of `createTransport`.
    ///   - localHost: The local IPv4 address to bind (127.0.0.1 by default).
    ///   - localPort: The local port to bind (0: any free one).
    ///   - sendingKey: The keying material to encrypt with; fresh random material by default.
    ///     Pass different material than announced to make the relay's authentication fail.
    public convenience init(
        transport: CreateTransportResult, localHost: String = "127.0.0.1", localPort: Int = 0, sendingKey: [UInt8]? = nil
    ) throws(MediaEndpointError) {
        var profile: SRTPProfile?
        var relayKey: [UInt8]?
        if let srtp = transport.srtp {
            guard let named = SRTPProfile(rawValue: srtp.profile) else { throw .unsupportedProfile(srtp.profile) }
            guard let decoded = SDESKeying.decodeBase64(srtp.key) else { throw .invalidKey("the relay's key is not base64") }
            profile = named
            relayKey = decoded
        }
        try self.init(
            transportId: transport.transportId, profile: profile, relayKey: relayKey, relayHost: transport.ip, relayPort: transport.port, localHost: localHost,
            localPort: localPort, sendingKey: sendingKey)
    }

    /// Opens an endpoint.
    ///
    /// - Parameters:
    ///   - transportId: The relay transport's id.
    ///   - profile: The SRTP profile, or nil for plain RTP.
    ///   - relayKey: The relay's keying material (required with a profile).
    ///   - relayHost: The relay transport's IPv4 address.
    ///   - relayPort: The relay transport's port.
    ///   - localHost: The local IPv4 address to bind.
    ///   - localPort: The local port to bind (0: any free one).
    ///   - sendingKey: The keying material to encrypt with; random by default.
    public init(
        transportId: Int, profile: SRTPProfile?, relayKey: [UInt8]?, relayHost: String, relayPort: Int, localHost: String = "127.0.0.1", localPort: Int = 0,
        sendingKey: [UInt8]? = nil
    ) throws(MediaEndpointError) {
        var relayIP: UInt32 = 0
        guard pkr_ipv4_parse(relayHost, &relayIP) == 0 else { throw .invalidAddress(relayHost) }
        var localIP: UInt32 = 0
        guard pkr_ipv4_parse(localHost, &localIP) == 0 else { throw .invalidAddress(localHost) }
        var sender: SRTPSession?
        var receiver: SRTPSession?
        var ownKey: [UInt8] = []
        if let profile {
            guard let relayKey else { throw .invalidKey("an SRTP endpoint needs the relay's key") }
            ownKey = sendingKey ?? SDESKeying.generateKeyingMaterial(for: profile)
            do {
                sender = try SRTPSession(profile: profile, keyingMaterial: ownKey, direction: .sender)
                receiver = try SRTPSession(profile: profile, keyingMaterial: relayKey, direction: .receiver, replayWindowSize: 4096)
            } catch {
                throw .invalidKey("\(error)")
            }
        }
        guard (0...65_535).contains(localPort) else { throw .invalidAddress("\(localHost):\(localPort)") }
        let fd = pkr_udp_open(localIP, UInt16(localPort), 1 << 21, 1 << 21)
        guard fd >= 0 else { throw .socketFailed(-fd) }
        self.fd = fd
        self.transportId = transportId
        self.profile = profile
        self.localKey = ownKey
        self.localHost = localHost
        self.localPort = Int(pkr_udp_local_port(fd))
        self.relayHost = relayHost
        self.relayPort = relayPort
        self.relayIP = relayIP
        self.crypto = Mutex(EndpointCrypto(sender: sender, receiver: receiver))
        let thread = Thread { [self] in self.receiveLoop() }
        thread.name = "pkr-endpoint-rx"
        thread.start()
    }

    deinit {
        close()
    }

    /// The endpoint's key as base64, for `connectTransport`'s `srtpKey`; nil for plain RTP.
    public var localKeyBase64: String? { profile == nil ? nil : SDESKeying.encodeBase64(localKey) }

    /// Parameters for `connectTransport`: this endpoint's key and, unless `latch` is set, its
    /// address (a pure receiver must give its address, then prove it with ``proveAddress()``;
    /// a sender may let the relay latch).
    public func connectParams(latch: Bool = false) -> ConnectTransportParams {
        ConnectTransportParams(transportId: transportId, ip: latch ? nil : localHost, port: latch ? nil : localPort, srtpKey: localKeyBase64)
    }

    /// Stops the receive thread (waiting at most a second) and closes the socket. Idempotent.
    public func close() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        _ = stopped.wait(timeout: .now() + 1)
        _ = pkr_close(fd)
    }

    // MARK: Sending

    /// Protects (for SRTP) and sends one RTP packet to the relay.
    public func send(_ packet: OutgoingRTPPacket) throws(MediaEndpointError) {
        let bytes = packet.serialized(reservingCapacity: profile?.maximumTrailerLength ?? 0)
        try sendProtected(bytes, rtcp: false)
    }

    /// Sends several RTP packets in order.
    public func send(_ packets: [OutgoingRTPPacket]) throws(MediaEndpointError) {
        for packet in packets { try send(packet) }
    }

    /// Sends `bytes` as they are, unprotected and unchanged (for replaying captured datagrams).
    public func sendDatagram(_ bytes: [UInt8]) throws(MediaEndpointError) {
        guard running.load(ordering: .acquiring) else { throw .closed }
        let result = bytes.withUnsafeBytes { pkr_udp_send(fd, $0.baseAddress, UInt32($0.count), relayIP, UInt16(relayPort)) }
        if result < 0 { throw .sendFailed(-result) }
    }

    /// Protects (for SRTP) one RTP packet without sending it, as the next packet of this
    /// endpoint's SRTP stream; send the result with ``sendDatagram(_:)``.
    public func protect(_ packet: OutgoingRTPPacket) throws(MediaEndpointError) -> [UInt8] {
        try protectBytes(packet.serialized(reservingCapacity: profile?.maximumTrailerLength ?? 0), rtcp: false)
    }

    /// Protects a plain RTP (`rtcp` false) or RTCP packet and sends it.
    func sendProtected(_ plain: [UInt8], rtcp: Bool) throws(MediaEndpointError) {
        try sendDatagram(protectBytes(plain, rtcp: rtcp))
    }

    /// Protects a plain RTP (`rtcp` false) or RTCP packet with the sender session.
    func protectBytes(_ plain: [UInt8], rtcp: Bool) throws(MediaEndpointError) -> [UInt8] {
        guard running.load(ordering: .acquiring) else { throw .closed }
        var bytes = plain
        let trailer = profile?.maximumTrailerLength ?? 0
        bytes.append(contentsOf: [UInt8](repeating: 0, count: trailer))
        var length = plain.count
        let status: SRTPStatus = crypto.withLock { crypto in
            guard let sender = crypto.sender else { return .ok }
            return bytes.withUnsafeMutableBytes { buffer in
                rtcp
                    ? sender.protectRTCP(buffer.baseAddress!, length: &length, capacity: buffer.count)
                    : sender.protectRTP(buffer.baseAddress!, length: &length, capacity: buffer.count)
            }
        }
        guard status == .ok else { throw .protectFailed("\(status)") }
        return Array(bytes[0..<length])
    }

    // MARK: Received media

    /// Every RTP packet received so far (of `ssrc` only, when given), in arrival order.
    public func receivedRTP(ssrc: UInt32? = nil) -> [ReceivedRTPPacket] {
        reception.withLock { state in ssrc.map { wanted in state.rtp.filter { $0.ssrc == wanted } } ?? state.rtp }
    }

    /// Every RTCP message received so far, in arrival order.
    public func receivedRTCP() -> [ReceivedRTCPMessage] {
        reception.withLock { $0.rtcp }
    }

    /// What was received, by outcome.
    public var counters: MediaEndpointCounters {
        reception.withLock { $0.counters }
    }

    /// Waits until `condition` holds for the received RTP packets, polling every 10 ms, and
    /// returns them; throws ``TimeoutError`` at the deadline.
    @discardableResult
    public func waitForRTP(
        timeout: Duration = .seconds(5), _ what: String = "RTP packets", until condition: ([ReceivedRTPPacket]) -> Bool
    ) async throws -> [ReceivedRTPPacket] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let packets = receivedRTP()
            if condition(packets) { return packets }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: timeout, what: what) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until at least `count` RTP packets of `ssrc` arrived and returns them.
    @discardableResult
    public func waitForRTP(ssrc: UInt32, count: Int, timeout: Duration = .seconds(5)) async throws -> [ReceivedRTPPacket] {
        try await waitForRTP(timeout: timeout, "\(count) RTP packets of SSRC \(ssrc)") { packets in
            packets.lazy.filter { $0.ssrc == ssrc }.count >= count
        }.filter { $0.ssrc == ssrc }
    }

    /// Waits until an RTCP message satisfying `condition` arrived and returns it.
    @discardableResult
    public func waitForRTCP(
        timeout: Duration = .seconds(5), _ what: String = "an RTCP message", where condition: (ReceivedRTCPMessage) -> Bool
    ) async throws -> ReceivedRTCPMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = receivedRTCP().first(where: condition) { return found }
            guard ContinuousClock.now < deadline else { throw TimeoutError(duration: timeout, what: what) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Receiving

    private func receiveLoop() {
        defer { stopped.signal() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while running.load(ordering: .acquiring) {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 20)
            guard ready > 0 else { continue }
            while true {
                let received = buffer.withUnsafeMutableBytes { raw in
                    recv(fd, raw.baseAddress, raw.count, 0)
                }
                guard received > 0 else { break }
                handle(Array(buffer[0..<received]))
            }
        }
    }

    private func handle(_ datagram: [UInt8]) {
        let now = ContinuousClock.now
        let kind = datagram.withUnsafeBytes { PacketDemultiplexer.classify($0) }
        var plain = datagram
        var length = datagram.count
        let status: SRTPStatus = crypto.withLock { crypto in
            guard let receiver = crypto.receiver else { return .ok }
            return plain.withUnsafeMutableBytes { buffer in
                switch kind {
                case .rtp: receiver.unprotectRTP(buffer.baseAddress!, length: &length)
                case .rtcp: receiver.unprotectRTCP(buffer.baseAddress!, length: &length)
                default: .malformed
                }
            }
        }
        reception.withLock { state in
            state.counters.datagrams += 1
            switch (kind, status) {
            case (.rtp, .ok):
                guard let header = RTPHeader.parse(Array(plain[0..<length])) else {
                    state.counters.otherFailures += 1
                    return
                }
                let payload = Array(plain[header.payloadOffset..<(header.payloadOffset + header.payloadLength)])
                let key = EndpointReception.key(ssrc: header.ssrc, sequenceNumber: header.sequenceNumber)
                state.rtp.append(
                    ReceivedRTPPacket(
                        ssrc: header.ssrc, sequenceNumber: header.sequenceNumber, timestamp: header.timestamp, marker: header.marker,
                        payloadType: header.payloadType, payload: payload, isRetransmission: false, receivedAt: now,
                        header: Array(plain[0..<header.payloadOffset])))
                state.counters.rtpPackets += 1
                if profile != nil { state.remember(datagram, key: key, index: state.rtp.count - 1) }
            case (.rtp, .replayed):
                // The RTP header travels in the clear: find the original by SSRC and sequence number.
                guard datagram.count >= 12 else {
                    state.counters.otherFailures += 1
                    return
                }
                let ssrc = UInt32(datagram[8]) << 24 | UInt32(datagram[9]) << 16 | UInt32(datagram[10]) << 8 | UInt32(datagram[11])
                let sequenceNumber = UInt16(datagram[2]) << 8 | UInt16(datagram[3])
                let key = EndpointReception.key(ssrc: ssrc, sequenceNumber: sequenceNumber)
                guard let original = state.protectedCopies[key], original.bytes == datagram else {
                    state.counters.replays += 1
                    return
                }
                var repeated = state.rtp[original.index]
                repeated.isRetransmission = true
                repeated.receivedAt = now
                state.rtp.append(repeated)
                state.counters.rtpPackets += 1
                state.counters.retransmissions += 1
            case (.rtcp, .ok):
                state.counters.rtcpPackets += 1
                let messages = Self.parseRTCP(Array(plain[0..<length]), receivedAt: now)
                state.rtcp.append(contentsOf: messages)
            case (_, .authenticationFailed):
                state.counters.authenticationFailures += 1
            case (_, .replayed):
                state.counters.replays += 1
            default:
                state.counters.otherFailures += 1
            }
        }
    }

    static func parseRTCP(_ packet: [UInt8], receivedAt: ContinuousClock.Instant) -> [ReceivedRTCPMessage] {
        packet.withUnsafeBytes { buffer in
            var messages: [ReceivedRTCPMessage] = []
            var iterator = RTCPPacketIterator(buffer)
            while let view = iterator.next() {
                guard view.length >= 8 else { continue }
                let sender = buffer.loadUnaligned(fromByteOffset: view.offset + 4, as: UInt32.self).bigEndian
                var media: UInt32?
                var nacked: [UInt16] = []
                if let feedback = RTCPFeedback(view: view, in: buffer) {
                    media = feedback.mediaSSRC
                    if feedback.isGenericNACK {
                        for index in 0..<feedback.nackEntryCount {
                            feedback.nackEntry(at: index, in: buffer)?.forEachLost { nacked.append($0) }
                        }
                    }
                }
                messages.append(
                    ReceivedRTCPMessage(
                        packetType: view.packetType, format: view.countOrFormat, senderSSRC: sender, mediaSSRC: media,
                        nackedSequenceNumbers: nacked, receivedAt: receivedAt))
            }
            return messages
        }
    }
}
