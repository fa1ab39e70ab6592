import CSocketShims

/// The media plane's I/O around one ``MediaCore``: epoll, `recvmmsg` in batches, the ICE-TCP
/// connections of its WebRTC port (``StreamConnections``), the IPv6 peers of its IPv6 WebRTC
/// socket (``IPv6Peers``), the clock, the mailbox's eventfd, and `sendmmsg` for what the core
/// queued. It decides nothing about packets.
final class MediaShell {
    let mailbox: MediaPlaneMailbox
    /// Where the thread's CPU time goes for /metrics (the core publishes its reports there too).
    let reports: ReportStore
    var lastCPUSampleMs: Int64 = 0
    let epollFD: Int32
    /// This shard's WebRTC socket, shared by the WebRTC transports that live here; -1 when WebRTC is off.
    let webRTCFD: Int32
    /// Its send-only twin, or `webRTCFD` itself.
    let webRTCSendFD: Int32
    /// The shard's IPv6 WebRTC socket on the same number; -1 without IPv6.
    let webRTC6FD: Int32
    /// Who sends to `webRTC6FD`; nil without IPv6.
    let ipv6Peers: IPv6Peers?
    /// When the IPv6 peers were last reclaimed, and how many entries that freed.
    var lastIPv6ReclaimMs: Int64 = .min / 2
    var lastIPv6ReclaimFreed = 0
    static let ipv6ReclaimIntervalMs: Int64 = 1000
    let core: MediaCore
    let receiveBatch: OpaquePointer
    let receiveBatchSize: Int
    let readyTokens: UnsafeMutablePointer<UInt64>
    var commands: [MediaCommand] = []
    var running = true
    /// The other shards' eventfds, by shard index (-1 for this one).
    let peerEventFDs: [Int32]
    /// Peers to wake after a batch, reused.
    var peersToWake: [Int] = []
    /// ICE-TCP on this shard's WebRTC port; nil when it does not listen.
    let streams: StreamConnections?
    var lastStreamSweepMs: Int64 = 0

    static let wakeToken = UInt64.max
    static let webRTCToken = UInt64.max - 1
    static let webRTC6Token = UInt64.max - 3
    /// Marks an epoll token as a transport's connected reader rather than its own socket.
    static let connectedReaderFlag: UInt64 = 1 << 62

    /// The epoll token of a transport's connected reader (``TransportState/connectedReaderFD``).
    static func connectedReaderToken(of transportId: Int) -> UInt64 { UInt64(truncatingIfNeeded: transportId) | connectedReaderFlag }
    static let maximumReadyEvents: Int32 = 64
    /// The most batches read from each of a transport's older sockets when its connected reader opens.
    static let settlingBatches = 64
    /// The longest wait for packets before the timers run.
    static let idleWaitMs: Int32 = 20
    /// Receive buffers hold a full Ethernet-size datagram plus room to spare; longer ones are
    /// truncated and dropped as oversized. With receive offload a message holds a run of
    /// datagrams, up to the largest UDP payload.
    static let receiveBufferSize = 2048
    static let coalescedReceiveBufferSize = 65_536

    init(
        configuration: MediaPlaneConfiguration, mailbox: MediaPlaneMailbox, reports: ReportStore, epollFD: Int32, sockets: ShardSockets,
        peerEventFDs: [Int32], events: AsyncStream<MediaPlaneEvent>.Continuation
    ) {
        self.mailbox = mailbox
        self.reports = reports
        self.peerEventFDs = peerEventFDs
        peersToWake.reserveCapacity(peerEventFDs.count)
        self.epollFD = epollFD
        webRTCFD = sockets.udp
        webRTCSendFD = sockets.sendingUDP
        webRTC6FD = sockets.udp6
        let randomSeed = UInt64(bitPattern: pkr_realtime_ms())
        let ipv6Peers = sockets.udp6 >= 0 ? IPv6Peers(seed: randomSeed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: pkr_monotonic_us())) : nil
        self.ipv6Peers = ipv6Peers
        receiveBatchSize = max(1, configuration.receiveBatchSize)
        let bufferSize = configuration.receiveOffload == .on ? Self.coalescedReceiveBufferSize : Self.receiveBufferSize
        receiveBatch = pkr_batch_create(UInt32(receiveBatchSize), UInt32(bufferSize))
        readyTokens = .allocate(capacity: Int(Self.maximumReadyEvents))
        commands.reserveCapacity(256)
        let streams =
            sockets.tcp >= 0
            ? StreamConnections(
                listenFD: sockets.tcp, listenFD6: sockets.tcp6, epollFD: epollFD, limit: configuration.webRTCTCPConnections,
                limitPerAddress: configuration.webRTCTCPConnectionsPerAddress) : nil
        self.streams = streams
        let output = SocketDatagramOutput(
            webRTCFD: webRTCSendFD, segmented: configuration.segmentationOffload == .on, connectsPlainPeers: configuration.connectedSockets,
            connectsSecurePeers: configuration.connectedSockets && configuration.sendOnlySockets && MediaPlane.kernelConnectsReaders,
            epollFD: epollFD, receiveBufferBytes: Int32(clamping: configuration.receiveBufferBytes),
            receivesCoalesced: configuration.receiveOffload == .on)
        output.streams = streams
        output.webRTC6FD = sockets.udp6
        output.ipv6Peers = ipv6Peers
        core = MediaCore(
            configuration: configuration, reports: reports, output: output,
            hasWebRTCSocket: sockets.udp >= 0, events: events,
            randomSeed: randomSeed)
    }

    deinit {
        pkr_batch_destroy(receiveBatch)
        readyTokens.deallocate()
    }

    /// Runs until a stop command arrives, then closes every socket it owns.
    func run() {
        _ = pkr_epoll_add(epollFD, mailbox.eventFD, Self.wakeToken)
        if webRTCFD >= 0 { _ = pkr_epoll_add(epollFD, webRTCFD, Self.webRTCToken) }
        if webRTC6FD >= 0 { _ = pkr_epoll_add(epollFD, webRTC6FD, Self.webRTC6Token) }
        streams?.startListening()
        updateClock()
        core.startTimers()
        while running {
            let ready = pkr_epoll_wait(epollFD, readyTokens, Self.maximumReadyEvents, core.timerWaitMs(idleWaitMs: Self.idleWaitMs))
            updateClock()
            if ready > 0 {
                // Commands first: a publish or subscribe that raced its first packets applies
                // before those packets are read.
                for index in 0..<Int(ready) where readyTokens[index] == Self.wakeToken {
                    pkr_eventfd_drain(mailbox.eventFD)
                    drainMailbox()
                    core.flushAll()
                }
                for index in 0..<Int(ready) {
                    let token = readyTokens[index]
                    if token == Self.webRTCToken {
                        receive(fd: webRTCFD, on: nil)
                    } else if token == Self.webRTC6Token {
                        receive(fd: webRTC6FD, on: nil, ipv6: true)
                    } else if token == StreamConnections.listenerToken {
                        acceptStreams(ipv6: false)
                    } else if token == StreamConnections.listener6Token {
                        acceptStreams(ipv6: true)
                    } else if token != Self.wakeToken, token & StreamConnections.tokenFlag != 0 {
                        receiveStream(slot: Int(truncatingIfNeeded: token & ~StreamConnections.tokenFlag))
                    } else if token != Self.wakeToken,
                        let transport = core.transports[Int(truncatingIfNeeded: token & ~Self.connectedReaderFlag)]
                    {
                        if token & Self.connectedReaderFlag == 0 {
                            receive(fd: transport.fd, on: transport)
                        } else {
                            if transport.connectedReaderSettling { settle(transport) }
                            receive(fd: transport.connectedReaderFD, on: transport, connectedTo: transport.connectedReaderPeer)
                        }
                    }
                }
            }
            // Packets other shards piped here wake this thread through the same eventfd.
            if !core.links.isEmpty { core.drainLinks() }
            core.flushAll()
            core.runTimers()
            core.flushAll()
            wakePeers()
            if let streams { tendStreams(streams) }
        }
        streams?.closeAll()
        for transport in core.transports.values where !transport.sharesSocket { close(transport) }
        if webRTCFD >= 0 {
            _ = pkr_epoll_remove(epollFD, webRTCFD)
            if webRTCSendFD != webRTCFD { _ = pkr_close(webRTCSendFD) }
            _ = pkr_close(webRTCFD)
        }
        if webRTC6FD >= 0 {
            _ = pkr_epoll_remove(epollFD, webRTC6FD)
            _ = pkr_close(webRTC6FD)
        }
        core.shutDown()
    }

    /// Accepts waiting ICE-TCP connections, on the IPv4 or the IPv6 listener.
    func acceptStreams(ipv6: Bool) {
        guard let streams else { return }
        let (accepted, refused) = streams.acceptWaiting(ipv6: ipv6, nowMs: core.nowMs)
        core.counters.streamConnectionsAccepted &+= UInt64(accepted)
        core.counters.streamConnectionsRefused &+= UInt64(refused)
    }

    /// Reads an ICE-TCP connection's frames into the core as datagrams on the WebRTC port, and
    /// writes what waited for room on it.
    func receiveStream(slot: Int) {
        guard let streams else { return }
        core.advanceMonotonicClock(monotonicUs: pkr_monotonic_us())
        let (open, oversized) = streams.read(slot: slot, nowMs: core.nowMs) { buffer, length, endpoint in
            core.handleWebRTCDatagram(buffer, length: length, from: endpoint)
        }
        if oversized > 0 {
            core.counters.packetsIn &+= UInt64(oversized)
            core.counters.drop(.oversized, count: UInt64(oversized))
        }
        if open {
            streams.flush(slot: slot)
        } else {
            streams.close(slot: slot)
        }
    }

    /// After every turn closes the ICE-TCP connections a write found broken (no frame of
    /// theirs is being read now) and tells the core which connections closed, so that no
    /// transport sends to them; once a second closes unused ones and lets a paused listener
    /// accept again.
    func tendStreams(_ streams: StreamConnections) {
        streams.closeFailed()
        if core.nowMs - lastStreamSweepMs >= 1000 {
            lastStreamSweepMs = core.nowMs
            streams.sweep(nowMs: core.nowMs) { core.webRTCByAddress[$0.key] != nil }
            streams.resumeListening(nowMs: core.nowMs)
        }
        guard !streams.closedEndpoints.isEmpty else { return }
        core.counters.streamConnectionsClosed &+= UInt64(streams.closedEndpoints.count)
        for endpoint in streams.closedEndpoints { core.streamClosed(endpoint) }
        streams.closedEndpoints.removeAll(keepingCapacity: true)
    }

    /// Wakes each shard this one piped packets to since the last batch, once.
    func wakePeers() {
        guard !core.links.isEmpty else { return }
        core.takeLinksToWake(into: &peersToWake)
        for peer in peersToWake where peer < peerEventFDs.count && peerEventFDs[peer] >= 0 { pkr_eventfd_signal(peerEventFDs[peer]) }
        peersToWake.removeAll(keepingCapacity: true)
    }

    func updateClock() {
        let monotonicUs = pkr_monotonic_us()
        let monotonicMs = monotonicUs / 1000
        core.advanceClock(monotonicUs: monotonicUs, unixMs: pkr_realtime_ms())
        // Reading the thread's CPU clock is a syscall: once a second, for /metrics.
        if monotonicMs - lastCPUSampleMs >= 1000 {
            lastCPUSampleMs = monotonicMs
            reports.recordThreadCPU(microseconds: pkr_thread_cpu_us())
        }
    }

    /// Applies every command the control plane posted since the last batch; sockets are
    /// registered before the core sees a new transport and closed after it forgot one.
    func drainMailbox() {
        mailbox.take(replacingWith: &commands)
        for command in commands {
            switch command {
            case .addTransport(let id, let fd, _, _, _, _):
                _ = pkr_epoll_add(epollFD, fd, UInt64(id))
                core.apply(command)
            case .removeTransport(let id):
                let transport = core.transports[id]
                core.apply(command)
                if let transport, !transport.sharesSocket { close(transport) }
            case .stop:
                running = false
            default:
                core.apply(command)
            }
        }
        commands.removeAll(keepingCapacity: true)
    }

    /// Closes a transport's own socket, its send-only twin and its connected reader.
    func close(_ transport: TransportState) {
        if transport.connectedReaderFD >= 0 {
            _ = pkr_epoll_remove(epollFD, transport.connectedReaderFD)
            _ = pkr_close(transport.connectedReaderFD)
            transport.connectedReaderFD = -1
        }
        _ = pkr_epoll_remove(epollFD, transport.fd)
        if transport.sendFD != transport.fd { _ = pkr_close(transport.sendFD) }
        _ = pkr_close(transport.fd)
    }

    /// Reads what the peer sent before its connected reader opened, oldest first: the backlog on
    /// the transport's own socket, then what reached the twin while it alone was connected.
    /// Bounded, so that a flood of other senders on the own socket cannot hold the shard here;
    /// after it the own socket hears only other senders.
    func settle(_ transport: TransportState) {
        transport.connectedReaderSettling = false
        drain(fd: transport.fd, on: transport)
        drain(fd: transport.sendFD, on: transport)
    }

    /// Reads `fd` until it is empty or ``settlingBatches`` batches were read.
    func drain(fd: Int32, on transport: TransportState) {
        var batches = 0
        while batches < Self.settlingBatches, receive(fd: fd, on: transport) > 0 { batches += 1 }
    }

    /// Reads one batch from one socket: a transport's own socket, or the shard's WebRTC one
    /// (`ipv6`: the shard's IPv6 WebRTC socket, whose peers are named by ``IPv6Peers``).
    /// One batch per turn, not until the socket is empty: the epoll set is level-triggered, so a
    /// socket with more waiting is reported again at the next wait, which costs no more than
    /// another read would and spares the read that finds a socket empty after a full batch
    /// (a burst of exactly one batch took four system calls, now three). Every ready socket
    /// gets its turn before any gets a second.
    ///
    /// Plain subscribers' datagrams may take their payloads from the batch (see
    /// ``MediaCore/handlesReceiveBatch``), so whatever is queued goes out before the batch is
    /// read into again: with one publisher socket ready per turn, as usual, that is never
    /// earlier than the turn's own flush.
    /// A connected socket (`connectedTo`, its peer) is read without asking the kernel for each
    /// datagram's source: it hears only that peer.
    /// Returns how many messages it read.
    @discardableResult
    func receive(fd: Int32, on transport: TransportState?, ipv6: Bool = false, connectedTo peer: PeerEndpoint? = nil) -> Int {
        if core.queuedFromReceiveBatch { core.flushAll() }
        let received =
            ipv6 ? pkr_batch_receive6(fd, receiveBatch) : peer != nil ? pkr_batch_receive_connected(fd, receiveBatch) : pkr_batch_receive(fd, receiveBatch)
        if received <= 0 { return 0 }
        // Arrivals are timed by their batch (transport-wide feedback reports them to 250 µs).
        core.advanceMonotonicClock(monotonicUs: pkr_monotonic_us())
        core.counters.receiveBatches &+= 1
        core.counters.receiveMessages &+= UInt64(received)
        core.handlesReceiveBatch = true
        // The batch's buffers are read into again next time: its pending run is forwarded now.
        defer {
            core.forwardRun()
            core.handlesReceiveBatch = false
        }
        for index in 0..<UInt32(received) {
            let length = Int(pkr_batch_length(receiveBatch, index))
            guard let buffer = UnsafeMutableRawPointer(pkr_batch_buffer(receiveBatch, index)) else { continue }
            let endpoint =
                ipv6
                ? ipv6Source(index, checks: length > 0 && buffer.load(as: UInt8.self) < 4)
                : peer ?? PeerEndpoint(ip: pkr_batch_source_ip(receiveBatch, index), port: pkr_batch_source_port(receiveBatch, index))
            // A coalesced message is cut back into its datagrams, handled in order in place:
            // the core never writes past the datagram it is given.
            let segment = Int(pkr_batch_segment_size(receiveBatch, index))
            guard segment > 0, segment < length else {
                handle(buffer, length: length, from: endpoint, on: transport)
                continue
            }
            var offset = 0
            while offset < length {
                let datagramLength = min(segment, length - offset)
                handle(buffer + offset, length: datagramLength, from: endpoint, on: transport)
                offset += datagramLength
            }
        }
        return Int(received)
    }

    /// The endpoint of message `index`'s IPv6 sender: its entry in ``IPv6Peers``; for a STUN
    /// message (`checks`, RFC 7983's first byte 0-3) from an address without one, a new entry,
    /// freeing those no transport uses when none is left; else ``IPv6Peers/unknown``.
    func ipv6Source(_ index: UInt32, checks: Bool) -> PeerEndpoint {
        guard let ipv6Peers else { return IPv6Peers.unknown }
        var high: UInt64 = 0
        var low: UInt64 = 0
        let port = pkr_batch_source6(receiveBatch, index, &high, &low)
        let address = IPv6Address(high: high, low: low)
        if let known = ipv6Peers.find(address, port: port) { return known }
        guard checks else { return IPv6Peers.unknown }
        if let added = ipv6Peers.add(address, port: port) { return added }
        // A pass that freed little is not repeated at once: a table full of peers in use would
        // otherwise be scanned for every newcomer's check.
        guard core.nowMs - lastIPv6ReclaimMs >= Self.ipv6ReclaimIntervalMs || lastIPv6ReclaimFreed >= ipv6Peers.capacity / 8 else {
            return IPv6Peers.unknown
        }
        ipv6Peers.beginReclaim()
        for key in core.webRTCByAddress.keys { ipv6Peers.keep(PeerEndpoint(key: key)) }
        for transport in core.transports.values where transport.remoteKey != 0 { ipv6Peers.keep(transport.remote) }
        lastIPv6ReclaimFreed = ipv6Peers.finishReclaim()
        lastIPv6ReclaimMs = core.nowMs
        core.counters.ipv6PeersReclaimed &+= UInt64(lastIPv6ReclaimFreed)
        return ipv6Peers.add(address, port: port) ?? IPv6Peers.unknown
    }

    @inline(__always)
    func handle(_ buffer: UnsafeMutableRawPointer, length: Int, from endpoint: PeerEndpoint, on transport: TransportState?) {
        if let transport {
            core.handleDatagram(on: transport, buffer: buffer, length: length, from: endpoint)
        } else {
            core.handleWebRTCDatagram(buffer, length: length, from: endpoint)
        }
    }
}
