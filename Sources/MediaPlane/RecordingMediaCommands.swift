public import ICE
public import SecureTransport
public import Synchronization

/// A media plane that moves no packet: it hands out transport ids and ports as ``MediaPlane``
/// does, checks keys the same way, and records every command in order. The relay core runs on
/// it in unit tests and in the control fuzzer, where sockets and threads would only cost time.
/// Reports and events are whatever the test puts in.
public final class RecordingMediaCommands: MediaCommands {
    /// One command as it was asked.
    public enum Command: Sendable, Hashable {
        case openTransport(id: Int, port: Int, profile: SRTPProfile?, group: String?, receiving: Bool)
        case openWebRTCTransport(id: Int, group: String?, receiving: Bool)
        case place(transports: [Int], group: String?, receiving: Set<Int>)
        case connectTransport(id: Int, remote: PeerEndpoint?, keyed: Bool, addressGranted: Bool)
        case setRemoteICECredentials(transportId: Int, credentials: ICECredentials)
        case restartICE(transportId: Int, local: ICECredentials, remote: ICECredentials)
        case connectWebRTCTransport(id: Int)
        case setCongestionControl(transportId: Int, CongestionControlSpec)
        case sendWebRTCDatagram([UInt8], to: PeerEndpoint, transportId: Int)
        /// One ``MediaCommands/apply(_:)`` call.
        case apply([MediaChange])
    }

    private struct State: Sendable {
        var transports: TransportRegistry
        var commands: [Command] = []
        var report = MediaPlaneReport()
        var levels: [UInt32: AudioLevelSample] = [:]
    }

    public let announcedAddress: String
    public let announcedAddress6: String?
    /// Recorded media planes listen on no TCP port.
    public var offersICETCP: Bool { false }
    public let webRTCPorts: [Int]
    public let portRange: ClosedRange<Int>
    public let events: AsyncStream<MediaPlaneEvent>
    private let eventSink: AsyncStream<MediaPlaneEvent>.Continuation
    private let state: Mutex<State>

    /// A recorder with WebRTC ports `webRTCPorts` (one per shard it pretends to have; empty: WebRTC off).
    /// WebRTC transports are dealt to them in turn, so a test sees more than one port.
    public init(
        announcedAddress: String = "127.0.0.1", announcedAddress6: String? = nil, portRange: ClosedRange<Int> = 40_000...40_999, webRTCPorts: [Int] = [7702]
    ) {
        self.announcedAddress = announcedAddress
        self.announcedAddress6 = announcedAddress6
        self.portRange = portRange
        self.webRTCPorts = webRTCPorts
        self.state = Mutex(State(transports: TransportRegistry(firstPort: portRange.lowerBound)))
        (events, eventSink) = AsyncStream.makeStream(of: MediaPlaneEvent.self, bufferingPolicy: .bufferingNewest(4096))
    }

    /// Every command so far, in order.
    public var commands: [Command] { state.withLock { $0.commands } }

    /// The commands since the last call, emptied.
    public func takeCommands() -> [Command] {
        state.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// The routing changes of every ``apply(_:)`` so far, in order.
    public var changes: [MediaChange] {
        commands.flatMap { command -> [MediaChange] in
            if case .apply(let changes) = command { return changes }
            return []
        }
    }

    /// The ids of the transports open now.
    public var openTransports: [Int] { state.withLock { $0.transports.entries.keys.sorted() } }

    /// What ``latestReport()`` answers from now on.
    public func setReport(_ report: MediaPlaneReport) { state.withLock { $0.report = report } }

    /// Audio levels the next ``takeAudioLevels()`` returns.
    public func addAudioLevels(_ levels: [UInt32: AudioLevelSample]) {
        state.withLock { state in
            for (id, sample) in levels { state.levels[id] = state.levels[id].map { $0.merged(with: sample) } ?? sample }
        }
    }

    /// Delivers an event on ``events``, as the data plane would.
    public func emit(_ event: MediaPlaneEvent) { eventSink.yield(event) }

    // MARK: MediaCommands

    public func openTransport(profile: SRTPProfile?, group: String?, receiving: Bool = false) -> Result<OpenedTransport, MediaPlaneError> {
        let range = portRange
        return state.withLock { state in
            for _ in 0..<range.count {
                let port = state.transports.portCursor
                state.transports.portCursor = port >= range.upperBound ? range.lowerBound : port + 1
                if state.transports.portsInUse.contains(port) { continue }
                let id = state.transports.nextId
                state.transports.nextId += 1
                state.transports.portsInUse.insert(port)
                state.transports.entries[id] = TransportRegistry.Entry(port: port, profile: profile, connected: false)
                state.commands.append(.openTransport(id: id, port: port, profile: profile, group: group, receiving: receiving))
                return .success(OpenedTransport(id: id, port: port, profile: profile, relayKey: profile.map { SDESKeying.generateKeyingMaterial(for: $0) }))
            }
            return .failure(.noFreePort(range))
        }
    }

    public func openWebRTCTransport(
        credentials: ICECredentials, audioLevelExtensionId: UInt8, group: String?, receiving: Bool = false
    ) -> Result<OpenedWebRTCTransport, MediaPlaneError> {
        guard !webRTCPorts.isEmpty else { return .failure(.webRTCDisabled) }
        return state.withLock { state in
            let id = state.transports.nextId
            state.transports.nextId += 1
            let shard = id % webRTCPorts.count
            state.transports.entries[id] = TransportRegistry.Entry(port: webRTCPorts[shard], profile: nil, connected: false, sharesSocket: true)
            state.commands.append(.openWebRTCTransport(id: id, group: group, receiving: receiving))
            return .success(OpenedWebRTCTransport(id: id, port: webRTCPorts[shard], shard: shard))
        }
    }

    public func place(transports ids: [Int], group: String?, receiving: Set<Int> = []) {
        state.withLock { $0.commands.append(.place(transports: ids, group: group, receiving: receiving)) }
    }

    public func connectTransport(id: Int, remote: PeerEndpoint?, clientKey: [UInt8]?, addressGranted: Bool) -> Result<Void, MediaPlaneError> {
        state.withLock { state in
            guard let entry = state.transports.entries[id] else { return .failure(.unknownTransport(id)) }
            if entry.connected { return .failure(.alreadyConnected(id)) }
            if let profile = entry.profile {
                if let clientKey {
                    guard SDESKeying.validate(clientKey, for: profile) else {
                        return .failure(.invalidKey("srtpKey must be \(profile.keyingMaterialLength) bytes of keying material for \(profile.rawValue)"))
                    }
                } else if remote == nil {
                    return .failure(.invalidKey("give srtpKey, or ip and port: a transport without either can neither latch nor send"))
                }
            }
            state.transports.entries[id]?.connected = true
            state.commands.append(.connectTransport(id: id, remote: remote, keyed: clientKey != nil, addressGranted: addressGranted))
            return .success(())
        }
    }

    public func setRemoteICECredentials(transportId: Int, credentials: ICECredentials) {
        state.withLock { $0.commands.append(.setRemoteICECredentials(transportId: transportId, credentials: credentials)) }
    }

    public func restartICE(transportId: Int, local: ICECredentials, remote: ICECredentials) {
        state.withLock { $0.commands.append(.restartICE(transportId: transportId, local: local, remote: remote)) }
    }

    public func connectWebRTCTransport(id: Int, inbound: SRTPSessionHandoff, outbound: SRTPSessionHandoff) {
        state.withLock { state in
            state.transports.entries[id]?.connected = true
            state.commands.append(.connectWebRTCTransport(id: id))
        }
    }

    public func setCongestionControl(transportId: Int, _ spec: CongestionControlSpec) {
        state.withLock { $0.commands.append(.setCongestionControl(transportId: transportId, spec)) }
    }

    public func sendWebRTCDatagram(_ datagram: [UInt8], to remote: PeerEndpoint, transportId: Int) {
        state.withLock { $0.commands.append(.sendWebRTCDatagram(datagram, to: remote, transportId: transportId)) }
    }

    public func apply(_ changes: [MediaChange]) {
        guard !changes.isEmpty else { return }
        state.withLock { state in
            for change in changes {
                guard case .closeTransport(let id) = change, let entry = state.transports.entries.removeValue(forKey: id) else { continue }
                if !entry.sharesSocket { state.transports.portsInUse.remove(entry.port) }
            }
            state.commands.append(.apply(changes))
        }
    }

    public func latestReport() -> MediaPlaneReport { state.withLock { $0.report } }

    public func takeAudioLevels() -> [UInt32: AudioLevelSample] {
        state.withLock { state in
            defer { state.levels = [:] }
            return state.levels
        }
    }

    public var status: MediaPlaneStatus {
        state.withLock { MediaPlaneStatus(transports: $0.transports.entries.count, udpPortsInUse: $0.transports.portsInUse.count) }
    }
}
