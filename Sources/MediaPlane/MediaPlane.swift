import CSocketShims
import ICE
import SecureTransport
import Synchronization

/// The media plane as the control plane sees it: opens and closes transports, posts routing
/// changes to the data-plane thread, and reads its once-a-second report.
public final class MediaPlane: Sendable {
    public let configuration: MediaPlaneConfiguration
    /// The address clients send media to.
    public let announcedAddress: String
    let bindIP: UInt32
    let mailbox: MediaPlaneMailbox
    let reports = ReportStore()
    let registry: Mutex<TransportRegistry>
    let epollFD: Int32
    let thread = DataPlaneThread()
    let lifecycle = Mutex<Lifecycle>(.created)
    /// The shared WebRTC socket, or -1 when WebRTC is off.
    let webRTCFD: Int32
    /// The port of the shared WebRTC socket (the configured one, or the one the system chose for 0).
    public let webRTCPort: Int?
    /// Handshake and liveness events of WebRTC transports, for the control plane to consume.
    public let events: AsyncStream<MediaPlaneEvent>
    let eventSink: AsyncStream<MediaPlaneEvent>.Continuation

    enum Lifecycle: Sendable { case created, running, stopped }

    public init(configuration: MediaPlaneConfiguration) throws(MediaPlaneError) {
        guard let bind = IPv4Endpoint(host: configuration.bindAddress, port: 1) else {
            throw .invalidBindAddress(configuration.bindAddress)
        }
        SRTPLibrary.initialize()
        self.configuration = configuration
        self.bindIP = bind.ip
        self.announcedAddress = configuration.announcedAddress ?? configuration.bindAddress
        let epoll = pkr_epoll_create()
        let event = pkr_eventfd_create()
        guard epoll >= 0, event >= 0 else { throw .socketFailed(errno: -min(epoll, event)) }
        self.epollFD = epoll
        self.mailbox = MediaPlaneMailbox(eventFD: event)
        self.registry = Mutex(TransportRegistry(firstPort: configuration.portRange.lowerBound))
        if let port = configuration.webRTCPort {
            let fd = pkr_udp_open(bind.ip, UInt16(clamping: port), Int32(clamping: configuration.receiveBufferBytes), Int32(clamping: configuration.sendBufferBytes))
            guard fd >= 0 else {
                _ = pkr_close(epoll)
                _ = pkr_close(event)
                throw fd == -98 ? .webRTCPortInUse(port) : .socketFailed(errno: -fd)
            }
            webRTCFD = fd
            webRTCPort = Int(pkr_udp_local_port(fd))
        } else {
            webRTCFD = -1
            webRTCPort = nil
        }
        (events, eventSink) = AsyncStream.makeStream(of: MediaPlaneEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// Starts the data-plane thread.
    public func start() {
        lifecycle.withLock { state in
            guard state == .created else { return }
            let shell = MediaShell(configuration: configuration, mailbox: mailbox, reports: reports, epollFD: epollFD, webRTCFD: webRTCFD, events: eventSink)
            if thread.start({ shell.run() }) { state = .running }
        }
    }

    /// Stops the data-plane thread; every transport's socket is closed.
    public func stop() {
        let wasRunning = lifecycle.withLock { state in
            defer { state = .stopped }
            return state == .running
        }
        guard wasRunning else { return }
        mailbox.post(.stop)
        thread.join()
        _ = pkr_close(epollFD)
        _ = pkr_close(mailbox.eventFD)
    }

    /// Opens a UDP transport on a free port of the configured range. `profile` nil means plain RTP.
    public func openTransport(profile: SRTPProfile?) -> Result<OpenedTransport, MediaPlaneError> {
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
        let opened: Result<(Int, Int, Int32), MediaPlaneError> = registry.withLock { registry in
            let size = range.count
            for _ in 0..<size {
                let port = registry.portCursor
                registry.portCursor = port >= range.upperBound ? range.lowerBound : port + 1
                if registry.portsInUse.contains(port) { continue }
                let fd = pkr_udp_open(bindIP, UInt16(port), Int32(clamping: configuration.receiveBufferBytes), Int32(clamping: configuration.sendBufferBytes))
                if fd == -98 { continue } // EADDRINUSE: another process holds it
                if fd < 0 { return .failure(.socketFailed(errno: -fd)) }
                let id = registry.nextId
                registry.nextId += 1
                registry.portsInUse.insert(port)
                registry.entries[id] = TransportRegistry.Entry(port: port, profile: profile, connected: false)
                return .success((id, port, fd))
            }
            return .failure(.noFreePort(range))
        }
        switch opened {
        case .failure(let error):
            return .failure(error)
        case .success(let (id, port, fd)):
            mailbox.post(.addTransport(id: id, fd: fd, port: port, profile: profile, outbound: outbound))
            return .success(OpenedTransport(id: id, port: port, profile: profile, relayKey: relayKey))
        }
    }

    /// Gives a transport the client's key and, optionally, its address (else it latches to the
    /// first packet that authenticates).
    public func connectTransport(id: Int, remote: IPv4Endpoint?, clientKey: [UInt8]?) -> Result<Void, MediaPlaneError> {
        let entry: Result<TransportRegistry.Entry, MediaPlaneError> = registry.withLock { registry in
            guard let entry = registry.entries[id] else { return .failure(.unknownTransport(id)) }
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
        registry.withLock { $0.entries[id]?.connected = true }
        mailbox.post(.connectTransport(id: id, remote: remote, inbound: inbound))
        return .success(())
    }

    /// Opens a WebRTC transport on the shared WebRTC port, answering ICE checks for
    /// `credentials` from now on. DTLS records reach ``events``; media flows once
    /// ``connectWebRTCTransport(id:inbound:outbound:)`` hands over the keys.
    ///
    /// Packets sent on it carry no header extension of the publisher's except the audio level,
    /// rewritten to `audioLevelExtensionId` (the id the relay's SDP offers name).
    public func openWebRTCTransport(credentials: ICECredentials, audioLevelExtensionId: UInt8) -> Result<Int, MediaPlaneError> {
        let timeout = UInt64(max(1, configuration.iceTimeoutMs)) * 1_000_000
        let timeouts = ICETimeouts(consent: timeout, connect: timeout)
        guard webRTCFD >= 0, let port = webRTCPort else { return .failure(.webRTCDisabled) }
        let id = registry.withLock { registry in
            let id = registry.nextId
            registry.nextId += 1
            registry.entries[id] = TransportRegistry.Entry(port: port, profile: nil, connected: false, sharesSocket: true)
            return id
        }
        let agent = ICELiteAgent(localCredentials: credentials, timeouts: timeouts, createdAt: UInt64(max(0, pkr_monotonic_ms())) &* 1_000_000)
        mailbox.post(.addWebRTCTransport(id: id, agent: agent, audioLevelExtensionId: audioLevelExtensionId))
        return .success(id)
    }

    /// The peer's ICE credentials from its SDP: from now on its checks must name its ufrag.
    public func setRemoteICECredentials(transportId: Int, credentials: ICECredentials) {
        mailbox.post(.setRemoteICECredentials(id: transportId, credentials: credentials))
    }

    /// Starts media on a WebRTC transport with the DTLS-SRTP sessions.
    public func connectWebRTCTransport(id: Int, inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff) {
        registry.withLock { $0.entries[id]?.connected = true }
        mailbox.post(.connectWebRTCTransport(id: id, inbound: inbound, outbound: outbound))
    }

    /// Sends one datagram (a DTLS record) from the shared WebRTC port. Safe from any thread:
    /// the kernel serialises sends on the socket.
    public func sendWebRTCDatagram(_ datagram: [UInt8], to remote: IPv4Endpoint) {
        guard webRTCFD >= 0 else { return }
        datagram.withUnsafeBytes { bytes in
            _ = pkr_udp_send(webRTCFD, bytes.baseAddress, UInt32(bytes.count), remote.ip, remote.port)
        }
    }

    /// Closes a transport and frees its port; its sources and sinks go with it.
    public func closeTransport(id: Int) {
        let existed = registry.withLock { registry -> Bool in
            guard let entry = registry.entries.removeValue(forKey: id) else { return false }
            if !entry.sharesSocket { registry.portsInUse.remove(entry.port) }
            return true
        }
        if existed { mailbox.post(.removeTransport(id: id)) }
    }

    /// The number of open transports.
    public var transportCount: Int { registry.withLock { $0.entries.count } }

    public func addSource(_ spec: MediaSourceSpec) { mailbox.post(.addSource(spec)) }
    public func removeSource(id: UInt32) { mailbox.post(.removeSource(id: id)) }
    public func addSink(_ spec: MediaSinkSpec) { mailbox.post(.addSink(spec)) }
    public func removeSink(id: UInt32) { mailbox.post(.removeSink(id: id)) }
    public func bind(sink: UInt32, source: UInt32) { mailbox.post(.bind(sink: sink, source: source)) }
    /// Moves a bound video sink to `source` at that source's next keyframe (requested at once),
    /// keeping it on its current source until then; an unbound sink binds as with ``bind(sink:source:)``.
    public func switchSource(sink: UInt32, source: UInt32) { mailbox.post(.switchSource(sink: sink, source: source)) }
    public func unbind(sink: UInt32) { mailbox.post(.unbind(sink: sink)) }
    /// Sends a sink's packets with `payloadType` instead of the publisher's: a WebRTC subscriber
    /// whose SDP gives the publisher's number to another codec gets the codec under a free one.
    public func setSinkPayloadType(sink: UInt32, payloadType: UInt8) { mailbox.post(.setSinkPayloadType(sink: sink, payloadType: payloadType)) }

    /// Sends a sink's retransmissions on an RFC 4588 stream with this SSRC and payload type, or,
    /// with SSRC 0, again as copies of the original packets.
    public func setSinkRetransmission(sink: UInt32, ssrc: UInt32, payloadType: UInt8) {
        mailbox.post(.setSinkRetransmission(sink: sink, ssrc: ssrc, payloadType: payloadType))
    }
    public func requestKeyframe(source: UInt32) { mailbox.post(.requestKeyframe(source: source)) }
    /// Holds a video sink back until its source's next keyframe, which is requested now: the
    /// subscriber has just learnt of the track (a WebRTC answer) and missed what came before.
    public func restartSinkAtKeyframe(sink: UInt32) { mailbox.post(.restartSinkAtKeyframe(sink: sink)) }

    /// The newest once-a-second snapshot of the data plane.
    public func latestReport() -> MediaPlaneReport { reports.read() }

    /// The loudest audio level per source id since the previous call (sources that carried none are absent).
    public func takeAudioLevels() -> [UInt32: AudioLevelSample] { reports.takeLevels() }
}
