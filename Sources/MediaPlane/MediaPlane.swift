public import CSocketShims
public import ICE
public import SecureTransport
public import Synchronization

/// The media plane as the control plane sees it: opens and closes transports, places them on
/// shards (data-plane threads), posts routing changes to the shards that own what they touch,
/// and merges the shards' once-a-second reports.
public final class MediaPlane: MediaCommands {
    public let configuration: MediaPlaneConfiguration
    /// The address clients send media to.
    public let announcedAddress: String
    let bindIP: UInt32
    let shards: [MediaShard]
    let registry: Mutex<Registry>
    let lifecycle = Mutex<Lifecycle>(.created)
    /// The shards' reports merged, with the report times they were merged from.
    let mergedReport = Mutex<(stamps: [Int64], report: MediaPlaneReport)>(([], MediaPlaneReport()))
    /// Each shard's WebRTC sockets, in shard order: UDP, read by the shard and shared by the
    /// WebRTC transports that live there, its send-only twin, the ICE-TCP listener, and their
    /// IPv6 counterparts; empty when WebRTC is off.
    let webRTCSockets: [ShardSockets]
    /// Each shard's WebRTC port, in shard order: `media.webrtcPort` plus the shard's index, or
    /// the ports the system chose when it is 0; empty when WebRTC is off.
    public let webRTCPorts: [Int]
    /// The IPv6 address clients send WebRTC media to (`media.announcedAddress6`, else
    /// `media.bindAddress6`); nil when the WebRTC ports do not listen on IPv6.
    public let announcedAddress6: String?
    /// Handshake and liveness events of WebRTC transports, for the control plane to consume.
    public let events: AsyncStream<MediaPlaneEvent>
    let eventSink: AsyncStream<MediaPlaneEvent>.Continuation

    /// `startFailed`: a thread could not be started; the others run, and nothing is closed.
    enum Lifecycle: Sendable { case created, running, startFailed, stopped }

    /// Ports and keys of open transports, and which shard owns what.
    struct Registry: Sendable {
        var transports: TransportRegistry
        var routing: ShardRouting
        /// Transports opened before their session joined a room, with the commands for them so
        /// far: no shard has them yet (their datagrams wait in the socket), so that they go to the
        /// shard of the room their session joins first.
        var unplaced: [Int: [MediaCommand]] = [:]
    }

    public init(configuration: MediaPlaneConfiguration) throws(MediaPlaneError) {
        guard let bind = PeerEndpoint(host: configuration.bindAddress, port: 1) else {
            throw .invalidBindAddress(configuration.bindAddress)
        }
        SRTPLibrary.initialize()
        var configuration = configuration
        guard let segmentation = configuration.segmentationOffload.resolved(supported: pkr_udp_segmentation_supported() != 0) else {
            throw .segmentationOffloadUnsupported
        }
        guard let receive = configuration.receiveOffload.resolved(supported: pkr_udp_receive_offload_supported() != 0) else {
            throw .receiveOffloadUnsupported
        }
        configuration.sendOnlySockets = configuration.sendOnlySockets && Self.kernelSteersSharedPorts
        configuration.connectedSockets = configuration.connectedSockets && (!configuration.sendOnlySockets || Self.kernelConnectsTwins)
        configuration.segmentationOffload = segmentation
        configuration.receiveOffload = receive
        self.configuration = configuration
        self.bindIP = bind.ip
        self.announcedAddress = configuration.announcedAddress ?? configuration.bindAddress
        var shards: [MediaShard] = []
        do {
            for index in 0..<min(max(1, configuration.threads), MediaPlaneConfiguration.maximumThreads) { shards.append(try MediaShard(index: index)) }
        } catch {
            for shard in shards { shard.close() }
            throw error
        }
        self.shards = shards
        self.registry = Mutex(
            Registry(
                transports: TransportRegistry(firstPort: configuration.portRange.lowerBound),
                routing: ShardRouting(shardCount: shards.count, spreadAfter: configuration.spreadRoomAfter)))
        var bind6: IPv6Address?
        if let text = configuration.bindAddress6 {
            guard let parsed = IPv6Address(text) else {
                for shard in shards { shard.close() }
                throw .invalidIPv6BindAddress(text)
            }
            bind6 = parsed
        }
        if let port = configuration.webRTCPort {
            do {
                webRTCSockets = try Self.openWebRTCSockets(firstPort: port, count: shards.count, bindIP: bind.ip, bind6: bind6, configuration: configuration)
            } catch {
                for shard in shards { shard.close() }
                throw error
            }
        } else {
            webRTCSockets = []
        }
        webRTCPorts = webRTCSockets.map(\.port)
        announcedAddress6 = webRTCSockets.isEmpty ? nil : bind6.map { _ in configuration.announcedAddress6 ?? configuration.bindAddress6! }
        (events, eventSink) = AsyncStream.makeStream(of: MediaPlaneEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// Whether media leaves with UDP generic segmentation offload: `media.gso` resolved to
    /// `on` or `off` for this kernel.
    public var segmentationOffload: UDPOffload { configuration.segmentationOffload }

    /// Whether media arrives with UDP generic receive offload: `media.gro` resolved.
    public var receiveOffload: UDPOffload { configuration.receiveOffload }

    /// Whether each media socket sends through a send-only twin (`media.sendOnlySockets`, on where
    /// the kernel steers a shared port as the relay needs; see pkr_udp_open_send_twin).
    public var sendOnlySockets: Bool { configuration.sendOnlySockets }

    /// Whether RTP transports send and receive on sockets connected to their peer
    /// (`media.connectedSockets`, where the kernel steers a connected twin's port as the relay
    /// needs; see pkr_udp_connect_peer, and pkr_udp_open_connected_reader for SRTP transports).
    public var connectedSockets: Bool { configuration.connectedSockets }

    /// Whether this kernel gives a peer's datagrams to the socket of a twin pair connected last
    /// (see pkr_udp_connected_twin_supported), probed once per process like the twins.
    static let kernelConnectsTwins = pkr_udp_connected_twin_supported() != 0

    /// Whether this kernel gives a peer's datagrams to a third socket on a twin pair's port,
    /// connected last, and every other sender's to the pair's unconnected socket (see
    /// pkr_udp_connected_reader_supported): what connecting an SRTP transport needs.
    static let kernelConnectsReaders = pkr_udp_connected_reader_supported() != 0

    /// Whether this kernel gives a shared port's datagrams to the socket that joined first (see
    /// pkr_udp_send_twin_supported): probed once per process, since the probe opens four sockets
    /// and waits for its datagrams, and every media plane (one per relay, one per fuzz input)
    /// would otherwise pay it again.
    static let kernelSteersSharedPorts = pkr_udp_send_twin_supported() != 0

    /// A send-only twin for a newly bound media socket, or -1 to send on the socket itself (the
    /// setting is off, or the system refused a socket: the twin only saves work).
    static func openSendTwin(of fd: Int32, configuration: MediaPlaneConfiguration) -> Int32 {
        guard configuration.sendOnlySockets else { return -1 }
        return max(-1, pkr_udp_open_send_twin(fd, Int32(clamping: configuration.sendBufferBytes)))
    }

    /// One WebRTC socket (and its send-only twin, where used) per shard, and with
    /// `media.webrtcTCP` a TCP socket listening on the same number: `firstPort` plus the shard's
    /// index, or a port the system chooses for each when `firstPort` is 0 (one free for TCP, and
    /// for IPv6, too). With `bind6` the same number is opened on that IPv6 address, UDP and (with
    /// ICE-TCP) TCP. Every socket opened is closed again when one fails.
    static func openWebRTCSockets(
        firstPort: Int, count: Int, bindIP: UInt32, bind6: IPv6Address?, configuration: MediaPlaneConfiguration
    ) throws(MediaPlaneError) -> [ShardSockets] {
        var opened: [ShardSockets] = []
        func closeOpened() { for sockets in opened { sockets.close() } }
        guard firstPort >= 0, firstPort == 0 || firstPort + count - 1 <= 65_535 else {
            throw .webRTCPortsOutOfRange(first: firstPort, count: count)
        }
        let receiveBytes = Int32(clamping: configuration.receiveBufferBytes)
        let sendBytes = Int32(clamping: configuration.sendBufferBytes)
        for index in 0..<count {
            // A port the system chooses for UDP may be taken on TCP or IPv6: another one is tried.
            var attempts = firstPort == 0 && (configuration.webRTCTCP || bind6 != nil) ? 20 : 1
            while true {
                attempts -= 1
                let port = firstPort == 0 ? 0 : firstPort + index
                var sockets = ShardSockets()
                sockets.udp = pkr_udp_open(bindIP, UInt16(port), receiveBytes, sendBytes)
                guard sockets.udp >= 0 else {
                    closeOpened()
                    throw sockets.udp == -98 ? .webRTCPortInUse(port) : .socketFailed(errno: -sockets.udp)
                }
                sockets.port = Int(pkr_udp_local_port(sockets.udp))
                let number = UInt16(clamping: sockets.port)
                // The same number on TCP, IPv6 UDP and IPv6 TCP, each as configured.
                var failure: Int32 = 0
                var failedOn = ""
                if configuration.webRTCTCP {
                    sockets.tcp = pkr_tcp_listen(bindIP, number, 128)
                    if sockets.tcp < 0 { (failure, failedOn) = (sockets.tcp, "tcp") }
                }
                if failure == 0, let bind6 {
                    sockets.udp6 = pkr_udp_open6(bind6.high, bind6.low, number, receiveBytes, sendBytes)
                    if sockets.udp6 < 0 { (failure, failedOn) = (sockets.udp6, "udp6") }
                    if failure == 0, configuration.webRTCTCP {
                        sockets.tcp6 = pkr_tcp_listen6(bind6.high, bind6.low, number, 128)
                        if sockets.tcp6 < 0 { (failure, failedOn) = (sockets.tcp6, "tcp6") }
                    }
                }
                if failure < 0 {
                    sockets.close()
                    if failure == -98, attempts > 0 { continue }
                    closeOpened()
                    switch (failure, failedOn) {
                    case (-98, "tcp"): throw .webRTCTCPPortInUse(sockets.port)
                    case (-98, _): throw .webRTCIPv6PortInUse(sockets.port)
                    case (-99, _), (-97, _): throw .unavailableIPv6Address(configuration.bindAddress6 ?? "")
                    default: throw .socketFailed(errno: -failure)
                    }
                }
                if configuration.receiveOffload == .on {
                    _ = pkr_udp_enable_receive_offload(sockets.udp)
                    if sockets.udp6 >= 0 { _ = pkr_udp_enable_receive_offload(sockets.udp6) }
                }
                sockets.udpSend = openSendTwin(of: sockets.udp, configuration: configuration)
                opened.append(sockets)
                break
            }
        }
        return opened
    }

    /// Whether every WebRTC port also listens on TCP (ICE-TCP, `media.webrtcTCP`).
    public var offersICETCP: Bool { !webRTCSockets.isEmpty && webRTCSockets.allSatisfy { $0.tcp >= 0 } }

    /// Closes the sockets and descriptors of a media plane whose threads never ran.
    func closeUnstarted() {
        // Transports placed on a shard wait in its mailbox, which no thread will read.
        for shard in shards {
            closeSockets(ofUnstarted: shard)
            shard.close()
        }
        closeUnplacedTransports()
    }

    /// Closes the sockets of transports no shard ever had.
    func closeUnplacedTransports() {
        let unplaced = registry.withLock { registry in
            defer { registry.unplaced = [:] }
            return Array(registry.unplaced.values.compactMap(\.first))
        }
        for command in unplaced { Self.closeSockets(of: command) }
    }

    /// Closes the sockets an `addTransport` command hands its shard, when no shard will take it.
    static func closeSockets(of command: MediaCommand) {
        guard case .addTransport(_, let fd, _, _, _, let sendFD) = command else { return }
        if sendFD >= 0, sendFD != fd { _ = pkr_close(sendFD) }
        if fd >= 0 { _ = pkr_close(fd) }
    }

    /// The number of data-plane threads.
    public var threadCount: Int { shards.count }

    /// Starts the data-plane threads.
    public func start() {
        lifecycle.withLock { state in
            guard state == .created else { return }
            let eventFDs = shards.map(\.mailbox.eventFD)
            var started = true
            for shard in shards {
                let sockets = webRTCSockets.indices.contains(shard.index) ? webRTCSockets[shard.index] : .none
                started = shard.start(configuration: configuration, sockets: sockets, peerEventFDs: eventFDs, events: eventSink) && started
            }
            state = started ? .running : .startFailed
        }
    }

    /// Stops the data-plane threads; every transport's socket is closed. A media plane never
    /// started closes what it opened: its WebRTC sockets (a TCP listener left open would keep
    /// completing clients' handshakes), epoll sets, eventfds and unplaced transports.
    public func stop() {
        let previous = lifecycle.withLock { state in
            defer { state = .stopped }
            return state
        }
        if previous == .created { closeUnstarted() }
        guard previous == .running || previous == .startFailed else { return }
        for shard in shards { shard.mailbox.post(.stop) }
        for shard in shards {
            let ran = shard.thread.isStarted
            shard.thread.join()
            // A shard whose thread never started never ran its shell, which closes its sockets.
            if !ran { closeSockets(ofUnstarted: shard) }
            shard.close()
        }
        closeUnplacedTransports()
    }

    /// Closes what a shard whose thread never started holds: its WebRTC sockets, and the
    /// sockets of the transports waiting in its mailbox.
    func closeSockets(ofUnstarted shard: MediaShard) {
        if webRTCSockets.indices.contains(shard.index) { webRTCSockets[shard.index].close() }
        var posted: [MediaCommand] = []
        shard.mailbox.take(replacingWith: &posted)
        for command in posted { Self.closeSockets(of: command) }
    }

    /// Posts each command to its shard, keeping their order per shard, and each shard's
    /// commands at once: a shard never applies part of a change and reads its sockets between
    /// (a newly placed transport's socket registered, its connection not yet applied, would
    /// drop a packet that waited in the socket, such as the one that proves its address).
    func post(_ posts: ShardRouting.Posts) {
        var batches = [[MediaCommand]](repeating: [], count: shards.count)
        for (shard, command) in posts where shards.indices.contains(shard) { batches[shard].append(command) }
        for (shard, batch) in batches.enumerated() { shards[shard].mailbox.post(batch) }
    }

    /// The shard a transport lives on.
    public func shard(ofTransport id: Int) -> Int? { registry.withLock { $0.routing.shard(ofTransport: id) } }

    /// Opens a UDP transport on a free port of the configured range. `profile` nil means plain RTP.
    /// With a `group` (the room of its session) it goes to the group's shard at once (a room's
    /// transports share one); without, it waits for ``place(transports:group:)`` when its session
    /// joins a room. A `receiving` transport (one that only subscribes) of a room that outgrew
    /// its shard goes to the least loaded one (``MediaPlaneConfiguration/spreadRoomAfter``).
    public func openTransport(profile: SRTPProfile?, group: String? = nil, receiving: Bool = false) -> Result<OpenedTransport, MediaPlaneError> {
        let range = configuration.portRange
        let relayKey = profile.map { SDESKeying.generateKeyingMaterial(for: $0) }
        var outbound: SRTPSessionHandoff?
        if let profile, let relayKey {
            do {
                outbound = SRTPSessionHandoff(try SRTPSession(profile: profile, keyingMaterial: relayKey, direction: .sender))
            } catch {
                return .failure(.invalidKey("could not create the relay's SRTP session: \(error)"))
            }
        }
        let opened: Result<(Int, Int, Int32, Int), MediaPlaneError> = registry.withLock { registry in
            let size = range.count
            for _ in 0..<size {
                let port = registry.transports.portCursor
                registry.transports.portCursor = port >= range.upperBound ? range.lowerBound : port + 1
                if registry.transports.portsInUse.contains(port) { continue }
                let fd = pkr_udp_open(bindIP, UInt16(port), Int32(clamping: configuration.receiveBufferBytes), Int32(clamping: configuration.sendBufferBytes))
                if fd == -98 { continue }  // EADDRINUSE: another process holds it
                if fd < 0 { return .failure(.socketFailed(errno: -fd)) }
                if configuration.receiveOffload == .on { _ = pkr_udp_enable_receive_offload(fd) }
                let id = registry.transports.nextId
                registry.transports.nextId += 1
                registry.transports.portsInUse.insert(port)
                registry.transports.entries[id] = TransportRegistry.Entry(port: port, profile: profile, connected: false)
                return .success((id, port, fd, -1))
            }
            return .failure(.noFreePort(range))
        }
        switch opened {
        case .failure(let error):
            return .failure(error)
        case .success(let (id, port, fd, _)):
            let add = MediaCommand.addTransport(
                id: id, fd: fd, port: port, profile: profile, outbound: outbound, sendFD: Self.openSendTwin(of: fd, configuration: configuration))
            registry.withLock { $0.unplaced[id] = [add] }
            if let group { place(transports: [id], group: group, receiving: receiving ? [id] : []) }
            return .success(OpenedTransport(id: id, port: port, profile: profile, relayKey: relayKey))
        }
    }

    /// Puts transports not yet on a shard onto `group`'s (a room's) shard, or the least loaded
    /// one without a group; transports already placed stay where they are, and those placed
    /// without a group (WebRTC transports opened before the join) give a group without a shard
    /// theirs. Those in `receiving` only subscribe: a room that outgrew its shard sends them to
    /// the least loaded one.
    public func place(transports ids: [Int], group: String?, receiving: Set<Int> = []) {
        post(
            registry.withLock { registry -> ShardRouting.Posts in
                var posts: ShardRouting.Posts = []
                // Placed transports first: a room without a shard takes theirs (their ports are out),
                // and the waiting ones follow it.
                if let group {
                    for id in ids where registry.unplaced[id] == nil { registry.routing.adopt(id, group: group) }
                }
                for id in ids {
                    guard let pending = registry.unplaced.removeValue(forKey: id) else { continue }
                    let shard = registry.routing.placeTransport(id, group: group, receiving: receiving.contains(id))
                    posts += pending.map { (shard, $0) }
                }
                return posts
            })
    }

    /// Posts a command to the shard of a transport, or keeps it until the transport is placed.
    func postToTransport(_ id: Int, _ command: MediaCommand) {
        let shard: Int? = registry.withLock { registry in
            if registry.unplaced[id] != nil {
                registry.unplaced[id]!.append(command)
                return nil
            }
            return registry.routing.shard(ofTransport: id)
        }
        if let shard { shards[shard].mailbox.post(command) }
    }

    /// Gives a transport the client's key and, optionally, its address (else it latches to the
    /// first packet that authenticates).
    ///
    /// - Parameter addressGranted: whether the control plane vouches for `remote` (a node of the
    ///   cluster, or an address the room server granted in the token). Otherwise the transport
    ///   sends nothing (media, RTCP, retransmissions) to `remote` until a packet from that
    ///   address has arrived that authenticates (SRTP or SRTCP; on a plain RTP transport, any
    ///   packet from it): whoever holds a token must not be able to aim a stream at an address
    ///   that never asked for it.
    public func connectTransport(id: Int, remote: PeerEndpoint?, clientKey: [UInt8]?, addressGranted: Bool = false) -> Result<Void, MediaPlaneError> {
        let entry: Result<TransportRegistry.Entry, MediaPlaneError> = registry.withLock { registry in
            guard let entry = registry.transports.entries[id] else { return .failure(.unknownTransport(id)) }
            if entry.connected { return .failure(.alreadyConnected(id)) }
            return .success(entry)
        }
        guard case .success(let found) = entry else {
            if case .failure(let error) = entry { return .failure(error) }
            return .failure(.unknownTransport(id))
        }
        var inbound: SRTPSessionHandoff?
        if let profile = found.profile {
            if let clientKey {
                guard SDESKeying.validate(clientKey, for: profile) else {
                    return .failure(.invalidKey("srtpKey must be \(profile.keyingMaterialLength) bytes of keying material for \(profile.rawValue)"))
                }
                do {
                    inbound = SRTPSessionHandoff(try SRTPSession(profile: profile, keyingMaterial: clientKey, direction: .receiver))
                } catch {
                    return .failure(.invalidKey("could not create the client's SRTP session: \(error)"))
                }
            } else if remote == nil {
                return .failure(.invalidKey("give srtpKey, or ip and port: a transport without either can neither latch nor send"))
            }
        }
        registry.withLock { $0.transports.entries[id]?.connected = true }
        postToTransport(id, .connectTransport(id: id, remote: remote, inbound: inbound, addressGranted: addressGranted))
        return .success(())
    }

    /// Opens a WebRTC transport on the WebRTC port of the shard it is placed on, answering ICE
    /// checks for `credentials` from now on. With a `group` (the room of its session) it goes
    /// to the group's shard, else to the least loaded one, whose shard the group of a later
    /// ``place(transports:group:)`` adopts if it has none yet: unlike an SRTP transport it
    /// cannot wait, because its port goes into the client's SDP. DTLS records reach
    /// ``events``; media flows once ``connectWebRTCTransport(id:inbound:outbound:)`` hands
    /// over the keys.
    ///
    /// Packets sent on it carry no header extension of the publisher's except the audio level,
    /// rewritten to `audioLevelExtensionId` (the id the relay's SDP offers name), and, once
    /// ``setCongestionControl(transportId:_:)`` names an id, the relay's own transport-wide number.
    /// A `receiving` transport (one that only subscribes) of a room that outgrew its shard goes
    /// to the least loaded one (``MediaPlaneConfiguration/spreadRoomAfter``).
    public func openWebRTCTransport(
        credentials: ICECredentials, audioLevelExtensionId: UInt8, group: String?, receiving: Bool = false
    ) -> Result<OpenedWebRTCTransport, MediaPlaneError> {
        let timeout = UInt64(max(1, configuration.iceTimeoutMs)) * 1_000_000
        let timeouts = ICETimeouts(consent: timeout, connect: timeout)
        guard webRTCPorts.count == shards.count else { return .failure(.webRTCDisabled) }
        let (id, shard) = registry.withLock { registry in
            let id = registry.transports.nextId
            registry.transports.nextId += 1
            let shard = registry.routing.placeTransport(id, group: group, receiving: receiving)
            registry.transports.entries[id] = TransportRegistry.Entry(port: webRTCPorts[shard], profile: nil, connected: false, sharesSocket: true)
            return (id, shard)
        }
        let agent = ICELiteAgent(localCredentials: credentials, timeouts: timeouts, createdAt: UInt64(max(0, pkr_monotonic_ms())) &* 1_000_000)
        postToTransport(id, .addWebRTCTransport(id: id, agent: agent, audioLevelExtensionId: audioLevelExtensionId))
        return .success(OpenedWebRTCTransport(id: id, port: webRTCPorts[shard], shard: shard))
    }

    /// The peer's ICE credentials from its SDP: from now on its checks must name its ufrag.
    public func setRemoteICECredentials(transportId: Int, credentials: ICECredentials) {
        postToTransport(transportId, .setRemoteICECredentials(id: transportId, credentials: credentials))
    }

    public func restartICE(transportId: Int, local: ICECredentials, remote: ICECredentials) {
        postToTransport(transportId, .restartICE(id: transportId, local: local, remote: remote))
    }

    /// Starts media on a WebRTC transport with the DTLS-SRTP sessions.
    public func connectWebRTCTransport(id: Int, inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff) {
        registry.withLock { $0.transports.entries[id]?.connected = true }
        postToTransport(id, .connectWebRTCTransport(id: id, inbound: inbound, outbound: outbound))
    }

    /// The congestion control a WebRTC transport's SDP settled: transport-wide feedback to its
    /// publisher when its packets carry transport-wide sequence numbers.
    public func setCongestionControl(transportId: Int, _ spec: CongestionControlSpec) {
        postToTransport(transportId, .setCongestionControl(id: transportId, spec))
    }

    /// Sends one datagram (a DTLS record) of a WebRTC transport from its shard's WebRTC port,
    /// the address its client checks; nothing once the transport is closed. Safe from any
    /// thread: the kernel serialises sends on the socket. A client on ICE-TCP gets it through
    /// its shard's thread, which owns the connection.
    public func sendWebRTCDatagram(_ datagram: [UInt8], to remote: PeerEndpoint, transportId: Int) {
        guard let shard = registry.withLock({ $0.routing.shard(ofTransport: transportId) }), webRTCSockets.indices.contains(shard) else { return }
        if remote.isStream || remote.isIPv6Datagram {
            shards[shard].mailbox.post(.sendWebRTCDatagram(datagram, to: remote))
            return
        }
        let fd = webRTCSockets[shard].sendingUDP
        // Under the lifecycle's lock: once stop() has begun, the shard may close the socket and
        // its number go to another descriptor, which must not get a DTLS record.
        lifecycle.withLock { state in
            guard state == .running else { return }
            datagram.withUnsafeBytes { bytes in
                _ = pkr_udp_send(fd, bytes.baseAddress, UInt32(bytes.count), remote.ip, remote.port)
            }
        }
    }

    /// The number of open transports.
    public var transportCount: Int { registry.withLock { $0.transports.entries.count } }

    /// The UDP ports of the media port range held by open transports (the WebRTC ports are
    /// not counted).
    public var portsInUseCount: Int { registry.withLock { $0.transports.portsInUse.count } }

    /// Counts and settings for the relay's overview.
    public var status: MediaPlaneStatus {
        let (transports, ports) = registry.withLock { ($0.transports.entries.count, $0.transports.portsInUse.count) }
        return MediaPlaneStatus(
            transports: transports, udpPortsInUse: ports, segmentationOffload: segmentationOffload == .on, receiveOffload: receiveOffload == .on,
            sendOnlySockets: sendOnlySockets, threadCPUSeconds: mediaThreadCPUSeconds())
    }

    /// The newest once-a-second snapshot of the data plane, all shards together. The shards'
    /// reports are merged once per new report, not once per call: every client's getStats and
    /// every scrape reads it, and a merge walks every source and sink of the relay.
    public func latestReport() -> MediaPlaneReport {
        guard shards.count > 1 else { return shards[0].reports.read() }
        let reports = shards.map { $0.reports.read() }
        let stamps = reports.map(\.generatedAtMs)
        return mergedReport.withLock { cache in
            if cache.stamps == stamps { return cache.report }
            var merged = MediaPlaneReport()
            for report in reports { merged.merge(report) }
            cache = (stamps, merged)
            return merged
        }
    }

    /// Each media thread's CPU time in seconds, in shard order (sampled by the thread about once a second).
    public func mediaThreadCPUSeconds() -> [Double] {
        shards.map { Double($0.reports.threadCPUMicroseconds) / 1e6 }
    }

    /// The loudest audio level per source id since the previous call (sources that carried none are absent).
    public func takeAudioLevels() -> [UInt32: AudioLevelSample] {
        guard shards.count > 1 else { return shards[0].reports.takeLevels() }
        var levels: [UInt32: AudioLevelSample] = [:]
        for shard in shards {
            for (id, sample) in shard.reports.takeLevels() { levels[id] = levels[id].map { $0.merged(with: sample) } ?? sample }
        }
        return levels
    }
}
