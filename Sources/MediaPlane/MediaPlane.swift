import CSocketShims
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
    }

    /// Starts the data-plane thread.
    public func start() {
        lifecycle.withLock { state in
            guard state == .created else { return }
            let plane = DataPlane(configuration: configuration, mailbox: mailbox, reports: reports, epollFD: epollFD)
            if thread.start({ plane.run() }) { state = .running }
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

    /// Closes a transport and frees its port; its sources and sinks go with it.
    public func closeTransport(id: Int) {
        let existed = registry.withLock { registry -> Bool in
            guard let entry = registry.entries.removeValue(forKey: id) else { return false }
            registry.portsInUse.remove(entry.port)
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
    public func requestKeyframe(source: UInt32) { mailbox.post(.requestKeyframe(source: source)) }

    /// The newest once-a-second snapshot of the data plane.
    public func latestReport() -> MediaPlaneReport { reports.read() }

    /// The loudest audio level per source id since the previous call (sources that carried none are absent).
    public func takeAudioLevels() -> [UInt32: AudioLevelSample] { reports.takeLevels() }
}
