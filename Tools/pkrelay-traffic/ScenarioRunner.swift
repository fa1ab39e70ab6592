import CSocketShims
import Foundation
import PKRelayClient
import Protocol
import SecureTransport
import Synchronization
import TrafficCore

/// Sets up a scenario's simulated clients against a relay, runs it for a duration and tears
/// it down.
final class ScenarioRunner: Sendable {
    /// The relays' control URLs: one, or a cluster's nodes for pk-cluster.
    let urls: [String]
    let spec: ScenarioSpec
    let tokens: TokenFactory
    let localHost: String
    /// The media threads; a room's sockets all live on one (see ``engineIndex(roomIndex:number:)``).
    let engines: [MediaEngine]
    /// This generator's share of the scenario.
    let part: ScenarioPart
    let recorder: ControlRecorder
    let live: Bool
    let host: String
    /// When the tool counts as the bound.
    let rule: ToolBoundRule
    /// Whether every transport asks for transport-wide congestion control (`--transport-cc`).
    let transportWide: Bool
    /// Whether publishers pace their video (`--pace-publishers`).
    let pacePublishers: Bool
    /// Whether audience members are WebRTC clients (`--transport webrtc`): ICE, DTLS and SDP on
    /// the relay's WebRTC ports, as browsers are.
    let webRTCAudience: Bool
    /// Audience members set up at a time (`--setup-width`): how fast a setup storm arrives.
    let setupWidth: Int
    /// pk-cluster: each room's audience joins every node in turn (`--audience-on-edges`), the
    /// nodes other than the room's serving it as edges (cluster.edges).
    let audienceOnEdges: Bool
    /// A paced publisher's rate over its video bitrate: libwebrtc's pacing factor.
    static let publisherPacingFactor = 2.5
    private let nextSocketId = Atomic<Int>(1)
    private let nextPublisherId = Atomic<UInt32>(1)
    /// Every client still connected, for teardown.
    private let open = Mutex<[Int: SimClient]>([:])

    init(
        urls: [String], spec: ScenarioSpec, tokens: TokenFactory, localHost: String, live: Bool, segmented: Bool, threads: Int, part: ScenarioPart,
        rule: ToolBoundRule, transportWide: Bool = false, pacePublishers: Bool = false, webRTCAudience: Bool = false, setupWidth: Int = 16,
        audienceOnEdges: Bool = false
    ) throws {
        self.setupWidth = max(1, setupWidth)
        self.audienceOnEdges = audienceOnEdges
        self.transportWide = transportWide
        self.webRTCAudience = webRTCAudience
        self.pacePublishers = pacePublishers
        precondition(!urls.isEmpty)
        self.urls = urls
        self.spec = spec
        self.tokens = tokens
        self.localHost = localHost
        self.live = live
        self.part = part
        self.rule = rule
        host = ProcessInfo.processInfo.hostName
        let recorder = ControlRecorder()
        self.recorder = recorder
        var engines: [MediaEngine] = []
        for index in 0..<max(1, threads) {
            do {
                engines.append(try MediaEngine(index: index, recorder: recorder, segmented: segmented))
            } catch {
                for engine in engines { _ = engine.stop() }
                throw error
            }
        }
        self.engines = engines
    }

    /// Stops every media thread and returns their figures added up.
    func stopEngines() -> EngineSnapshot {
        var total = EngineSnapshot()
        for engine in engines { total.add(engine.stop()) }
        return total
    }

    /// The media thread of a participant: paired scenarios place a whole PK pair on one thread,
    /// in turn over this part's pairs; fanout deals its subscribers out in turn.
    func engineIndex(roomIndex: Int, number: Int = 0) -> Int {
        let position = spec.kind == .fanout ? number / part.count : (roomIndex / 2) / part.count
        return position % engines.count
    }

    static func roomId(_ spec: ScenarioSpec, _ index: Int) -> String { "\(spec.kind.rawValue)-\(index)" }

    /// The node a room's participants connect to: pk-cluster spreads rooms over the nodes in
    /// turn (the anchor's join places the room there), so every pair straddles two nodes.
    func url(forRoom index: Int) -> String { spec.kind == .pkCluster ? urls[index % urls.count] : urls[0] }

    /// The node an audience member connects to: its room's, or with `--audience-on-edges` every
    /// node in turn, starting with the room's.
    func url(forRoom index: Int, audience number: Int) -> String {
        guard audienceOnEdges, urls.count > 1 else { return url(forRoom: index) }
        // fanout: the publisher is on the first node, every subscriber on another.
        if spec.kind == .fanout { return urls[1 + number % (urls.count - 1)] }
        return urls[(index + number) % urls.count]
    }

    /// Each node's rooms and clients as set up (pk-cluster's report).
    func nodeShares() -> [(url: String, rooms: Int, clients: Int)] {
        let rooms = part.rooms(of: spec.effectiveRooms)
        return urls.enumerated().map { position, url in
            let mine = rooms.filter { $0 % urls.count == position }.count
            guard audienceOnEdges else { return (url, mine, mine * (1 + spec.audiencePerRoom)) }
            let audience = rooms.reduce(0) { total, room in
                total + (0..<spec.audiencePerRoom).filter { (room + $0) % urls.count == position }.count
            }
            return (url, mine, mine + audience)
        }
    }

    /// Checks that every relay answers at all (exit status 2 when not).
    func probe() async throws {
        for url in spec.kind == .pkCluster || audienceOnEdges ? urls : [urls[0]] {
            do {
                let control = try await ControlClient.connect(to: url, timeout: .seconds(5))
                await control.close()
            } catch {
                throw ToolFailure(.relayUnreachable, "cannot reach the relay at \(url): \(error)")
            }
        }
    }

    /// Sets up, runs for `seconds` (measuring only after setup) and tears down.
    func run(seconds: Double, measuring: @Sendable (_ started: Bool) async -> Void = { _ in }) async throws -> RunOutcome {
        let started = ISO8601DateFormatter().string(from: Date())
        let liveLine = startLiveLine()
        do {
            switch spec.kind {
            case .pkShowroom, .pkCluster: try await setUpShowroom()
            case .fanout: try await setUpFanout()
            case .churn: try await setUpChurnAnchors()
            }
        } catch let failure as ToolFailure {
            liveLine.cancel()
            await tearDown()
            throw failure
        } catch {
            liveLine.cancel()
            await tearDown()
            throw ToolFailure(.setupFailed, "the scenario could not be set up: \(error)")
        }
        for engine in engines { engine.submit(.resetMeasurements) }
        // The engines publish their figures every 100 ms: let the reset show before the first CPU reading.
        try? await Task.sleep(for: .milliseconds(150))
        await measuring(true)
        let begin = MonotonicClock.microseconds()
        var monitor = GeneratorLoadMonitor(rule: rule, host: host, cores: Int(pkr_available_cpus()))
        monitor.start(cpuSample())
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        // Churn runs beside the measurement; the figures are taken at the deadline, before the
        // churning members' last leaves.
        let churning: Task<Void, Never>? = spec.kind == .churn ? Task { await self.churn(until: deadline) } : nil
        try? await Task.sleep(until: deadline, clock: .continuous)
        let clients = engines.reduce(0) { $0 + $1.clients.load(ordering: .relaxed) }
        let endSample = cpuSample()
        let snapshot = stopEngines()
        let measured = Double(MonotonicClock.microseconds() - begin) / 1e6
        let generator = monitor.window(until: endSample, lateness: snapshot.lateness, packets: snapshot.totals.sent &+ snapshot.totals.received)
        liveLine.cancel()
        await measuring(false)
        await churning?.value
        await tearDown()
        return RunOutcome(snapshot: snapshot, clients: clients, measuredSeconds: measured, startedAt: started, generator: generator)
    }

    // MARK: Participants

    /// Connects a user, opens its media socket and transport.
    private func connectWithTransport(
        user: String, roomIndex: Int, engine: MediaEngine, arrivedAt: Int64 = 0, url: String? = nil
    ) async throws -> (SimClient, Int, Int) {
        let client = try await SimClient.connect(url: url ?? self.url(forRoom: roomIndex), userId: user, recorder: recorder)
        open.withLock { $0[ObjectIdentifier(client.control).hashValue] = client }
        engine.clients.add(1, ordering: .relaxed)
        let created: CreateTransportResult = try await client.request(
            .createTransport, CreateTransportParams(transportWideSequenceExtensionId: transportWide ? Int(MediaEngine.transportWideExtensionId) : nil))
        if transportWide && created.transportWideSequenceExtensionId == nil {
            throw ToolFailure(.setupFailed, "--transport-cc: the relay declined transport-wide congestion control (media.congestionFeedback is off)")
        }
        guard let srtp = created.srtp, let profile = SRTPProfile(rawValue: srtp.profile), let relayKey = SDESKeying.decodeBase64(srtp.key) else {
            throw ToolFailure(.setupFailed, "createTransport returned no usable SRTP parameters")
        }
        let (relayIP, fd) = try openMediaSocket(relay: created.ip)
        if engines[0].coalescing { _ = pkr_udp_enable_receive_offload(fd) }
        let port = Int(pkr_udp_local_port(fd))
        let key = SDESKeying.generateKeyingMaterial(for: profile)
        let id = nextSocketId.add(1, ordering: .relaxed).oldValue
        engine.submit(
            .open(
                SocketSpec(
                    id: id, fd: fd, relayIP: relayIP, relayPort: UInt16(created.port), profile: profile, sendingKey: key, relayKey: relayKey,
                    roomIndex: roomIndex, feedbackSSRC: UInt32.random(in: 1...UInt32.max),
                    transportWideExtensionId: UInt8(created.transportWideSequenceExtensionId ?? 0), joinedAtMicroseconds: arrivedAt)))
        try await client.call(
            .connectTransport, ConnectTransportParams(transportId: created.transportId, ip: localHost, port: port, srtpKey: SDESKeying.encodeBase64(key)))
        // The relay sends to the given address once a packet from it has authenticated.
        engine.submit(.proveAddress(socket: id))
        return (client, id, created.transportId)
    }

    /// A client's UDP socket on the local address, and the relay's address from
    /// `createTransport`, host byte order.
    private func openMediaSocket(relay host: String) throws(ToolFailure) -> (relayIP: UInt32, fd: Int32) {
        var relayIP: UInt32 = 0
        var localIP: UInt32 = 0
        guard pkr_ipv4_parse(host, &relayIP) == 0, pkr_ipv4_parse(localHost, &localIP) == 0 else {
            throw ToolFailure(.setupFailed, "cannot parse \(host) or \(localHost) as IPv4")
        }
        let fd = pkr_udp_open(localIP, 0, 1 << 21, 1 << 20)
        guard fd >= 0 else { throw ToolFailure(.setupFailed, "cannot open a UDP socket (errno \(-fd))") }
        return (relayIP, fd)
    }

    /// An anchor: joins its room visible and publishes VP8 video and Opus audio.
    func anchor(roomIndex: Int) async throws -> Participant {
        let roomId = Self.roomId(spec, roomIndex)
        let user = "anchor-\(roomIndex)"
        let engine = engineIndex(roomIndex: roomIndex)
        let (client, socketId, transportId) = try await connectWithTransport(user: user, roomIndex: roomIndex, engine: engines[engine])
        let _: JoinRoomResult = try await client.request(
            .joinRoom, JoinRoomParams(token: tokens.token(room: roomId, user: user), roomId: roomId, userId: user, role: .anchor, visible: true))
        let publisherId = part.publisherId(nextPublisherId.add(1, ordering: .relaxed).oldValue)
        let video = UInt32.random(in: 1...UInt32.max)
        let audio = UInt32.random(in: 1...UInt32.max)
        // With transport-wide congestion control the video has a retransmission stream, as a
        // browser's always does: the relay probes its subscribers' downlinks with copies on it.
        var videoTrack = TrackDescription(kind: .video, ssrc: video, payloadType: Int(MediaEngine.videoPayloadType), codec: "VP8", clockRate: 90000)
        if transportWide {
            videoTrack.rtxSSRC = UInt32.random(in: 1...UInt32.max)
            videoTrack.rtxPayloadType = Int(MediaEngine.rtxPayloadType)
        }
        let _: PublishStreamResult = try await client.request(
            .publishStream,
            PublishStreamParams(
                roomId: roomId, transportId: transportId,
                tracks: [
                    videoTrack,
                    TrackDescription(
                        kind: .audio, ssrc: audio, payloadType: Int(MediaEngine.audioPayloadType), codec: "opus", clockRate: 48000, channels: 2,
                        parameters: "minptime=10;useinbandfec=1"),
                ]))
        engines[engine].submit(
            .publish(
                socket: socketId,
                PublisherSpec(
                    publisherId: publisherId, videoSSRC: video, audioSSRC: audio, video: spec.video, audio: spec.audio,
                    pacingBps: pacePublishers ? Int(Self.publisherPacingFactor * Double(spec.video.kbps) * 1000) : 0)))
        return Participant(client: client, socketId: socketId, engine: engine, roomIndex: roomIndex, roomId: roomId, publisherId: publisherId)
    }

    /// An audience member: joins invisible with auto-subscribe on its transport.
    func audience(roomIndex: Int, number: Int) async throws -> Participant {
        let roomId = Self.roomId(spec, roomIndex)
        let user = "viewer-\(roomIndex)-\(number)"
        let engine = engineIndex(roomIndex: roomIndex, number: number)
        // A fanout viewer's first keyframe is timed from its first request.
        let arrivedAt = spec.kind == .fanout ? MonotonicClock.microseconds() : 0
        if webRTCAudience {
            let (client, socketId) = try await webRTCViewer(
                user: user, roomId: roomId, roomIndex: roomIndex, engine: engines[engine], arrivedAt: arrivedAt, url: url(forRoom: roomIndex, audience: number))
            return Participant(client: client, socketId: socketId, engine: engine, roomIndex: roomIndex, roomId: roomId, publisherId: nil)
        }
        let (client, socketId, transportId) = try await connectWithTransport(
            user: user, roomIndex: roomIndex, engine: engines[engine], arrivedAt: arrivedAt, url: url(forRoom: roomIndex, audience: number))
        let _: JoinRoomResult = try await client.request(
            .joinRoom,
            JoinRoomParams(
                token: tokens.token(room: roomId, user: user), roomId: roomId, userId: user, role: .audience, visible: false,
                roomConfig: RoomConfig(subscribeTransportId: transportId)))
        return Participant(client: client, socketId: socketId, engine: engine, roomIndex: roomIndex, roomId: roomId, publisherId: nil)
    }

    /// A WebRTC audience member, as the web SDK joins: a receiving WebRTC transport for its
    /// room, the join with auto-subscribe on it, the answer to the relay's offer, ICE and DTLS;
    /// then the media engine takes the socket with the keys DTLS exported. Later offers are
    /// answered, and consent checked every 5 s, until the connection closes.
    private func webRTCViewer(
        user: String, roomId: String, roomIndex: Int, engine: MediaEngine, arrivedAt: Int64, url: String
    ) async throws -> (SimClient, Int) {
        let client = try await SimClient.connect(url: url, userId: user, recorder: recorder)
        open.withLock { $0[ObjectIdentifier(client.control).hashValue] = client }
        engine.clients.add(1, ordering: .relaxed)
        let created: CreateTransportResult = try await client.request(
            .createTransport, CreateTransportParams(kind: "webrtc", roomId: roomId, receiveOnly: true))
        let (relayIP, fd) = try openMediaSocket(relay: created.ip)
        guard let side = WebRTCClientSide(created: created, relayIP: relayIP, fd: fd) else {
            _ = pkr_close(fd)
            throw ToolFailure(.setupFailed, "createTransport returned no usable WebRTC parameters")
        }
        var handedOver = false
        defer { if !handedOver { _ = pkr_close(fd) } }
        let _: JoinRoomResult = try await client.request(
            .joinRoom,
            JoinRoomParams(
                token: tokens.token(room: roomId, user: user), roomId: roomId, userId: user, role: .audience, visible: false,
                roomConfig: RoomConfig(subscribeTransportId: created.transportId)))
        let offer = try await Self.nextOffer(client, transportId: created.transportId, timeout: .seconds(10))
        guard let offer else { throw ToolFailure(.setupFailed, "no onTransportOffer for WebRTC transport \(created.transportId)") }
        try await client.call(
            .answerTransportOffer,
            AnswerTransportOfferParams(
                transportId: created.transportId, revision: offer.revision, sdp: side.answer(to: offer.sdp, transportWide: transportWide)))
        let keys = try await side.connect(within: 10)
        // The handshake read datagrams one by one; the media engine reads runs, as for SRTP clients.
        if engines[0].coalescing { _ = pkr_udp_enable_receive_offload(fd) }
        let id = nextSocketId.add(1, ordering: .relaxed).oldValue
        let transportWideId = transportWide ? WebRTCClientSide.transportWideExtensionId(in: offer.sdp) ?? 0 : 0
        engine.submit(
            .open(
                SocketSpec(
                    id: id, fd: fd, relayIP: relayIP, relayPort: side.relayPort, profile: keys.profile, sendingKey: keys.localKeyingMaterial,
                    relayKey: keys.remoteKeyingMaterial, roomIndex: roomIndex, feedbackSSRC: UInt32.random(in: 1...UInt32.max),
                    transportWideExtensionId: transportWideId, joinedAtMicroseconds: arrivedAt)))
        handedOver = true
        let transportWide = transportWide
        Task {
            while true {
                do {
                    guard let next = try await Self.nextOffer(client, transportId: created.transportId, timeout: .seconds(5)) else { continue }
                    // Not counted: at teardown the connection closes under a late offer's answer.
                    try await client.control.call(
                        Method.answerTransportOffer.rawValue,
                        AnswerTransportOfferParams(
                            transportId: created.transportId, revision: next.revision, sdp: side.answer(to: next.sdp, transportWide: transportWide)))
                } catch ControlClientError.timeout {
                    _ = side.sendCheck()
                } catch {
                    return
                }
            }
        }
        return (client, id)
    }

    /// The next `onTransportOffer` for `transportId`; nil for an offer of another transport.
    static func nextOffer(_ client: SimClient, transportId: Int, timeout: Duration) async throws -> TransportOfferEvent? {
        let event = try await client.control.nextEvent(named: "onTransportOffer", timeout: timeout)
        guard case .transportOffer(let offer)? = event.event, offer.transportId == transportId else { return nil }
        return offer
    }

    /// Closes a participant's connection and socket.
    func dismiss(_ participant: Participant) async {
        engines[participant.engine].submit(.close(socket: participant.socketId))
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(participant.client.control).hashValue) }
        await participant.client.close()
        engines[participant.engine].clients.subtract(1, ordering: .relaxed)
    }

    private func tearDown() async {
        _ = stopEngines()
        let clients = open.withLock { clients in
            let all = Array(clients.values)
            clients.removeAll()
            return all
        }
        await withTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.close() } }
        }
    }

    /// Runs `work` for each index with at most `width` at a time.
    func forEach(_ count: Int, width: Int = 16, _ work: @escaping @Sendable (Int) async throws -> Participant) async throws -> [Participant] {
        var results: [Participant] = []
        try await withThrowingTaskGroup(of: Participant.self) { group in
            var next = 0
            while next < min(width, count) {
                let index = next
                group.addTask { try await work(index) }
                next += 1
            }
            while let result = try await group.next() {
                results.append(result)
                if next < count {
                    let index = next
                    group.addTask { try await work(index) }
                    next += 1
                }
            }
        }
        return results
    }

    // MARK: Scenarios

    private func setUpShowroom() async throws {
        let rooms = part.rooms(of: spec.effectiveRooms)
        let anchors = try await forEach(rooms.count) { try await self.anchor(roomIndex: rooms[$0]) }.sorted { $0.roomIndex < $1.roomIndex }
        let perRoom = spec.audiencePerRoom
        _ = try await forEach(rooms.count * perRoom, width: setupWidth) { try await self.audience(roomIndex: rooms[$0 / perRoom], number: $0 % perRoom) }
        // Let the audience see their own anchor first, so the link's keyframe is the one measured.
        try await Task.sleep(for: .milliseconds(300))
        _ = try await forEach(anchors.count / 2) { pair in
            let a = anchors[2 * pair]
            let b = anchors[2 * pair + 1]
            try await self.pair(a, b)
            return a
        }
    }

    /// Connects two anchors' rooms: a link, or forwards both ways; watches both first keyframes.
    func pair(_ a: Participant, _ b: Participant) async throws {
        let now = MonotonicClock.microseconds()
        watch(roomIndex: b.roomIndex, publisherId: a.publisherId!, since: now)
        watch(roomIndex: a.roomIndex, publisherId: b.publisherId!, since: now)
        switch spec.pkMode {
        case .link:
            let _: ConnectOtherRoomEvent = try await a.client.request(.connectOtherRoom, ConnectOtherRoomParams(roomId: b.roomId, userId: b.client.userId))
        case .forward:
            try await startForward(a, into: b)
            try await startForward(b, into: a)
        }
    }

    /// Times the first keyframe of `publisherId` to reach the audience of room `roomIndex`.
    func watch(roomIndex: Int, publisherId: UInt32, since: Int64) {
        engines[engineIndex(roomIndex: roomIndex)].submit(.watch(KeyframeWatchSpec(roomIndex: roomIndex, publisherId: publisherId, sinceMicroseconds: since)))
    }

    func startForward(_ source: Participant, into target: Participant) async throws {
        let _: ForwardStreamResult = try await source.client.request(
            .startForwardStreamToRooms,
            StartForwardParams(
                roomId: source.roomId,
                targets: [ForwardTargetParams(roomId: target.roomId, token: tokens.token(room: target.roomId, user: source.client.userId))]))
    }

    private func setUpFanout() async throws {
        if part.runsFanoutAnchor { _ = try await anchor(roomIndex: 0) }
        let numbers = part.subscribers(of: spec.subscribers)
        _ = try await forEach(numbers.count, width: setupWidth) { try await self.audience(roomIndex: 0, number: numbers[$0]) }
    }

    /// Churn: anchors publish (the audience comes and goes while the run lasts).
    private let churnAnchors = Mutex<[Participant]>([])

    private func setUpChurnAnchors() async throws {
        let rooms = part.rooms(of: spec.effectiveRooms)
        let anchors = try await forEach(rooms.count) { try await self.anchor(roomIndex: rooms[$0]) }.sorted { $0.roomIndex < $1.roomIndex }
        churnAnchors.withLock { $0 = anchors }
    }

    /// Audience members join, stay a random while and leave; the first anchor of each pair
    /// forwards into the other room for a while, stops, then links with the other anchor for a
    /// while, ends the link, and starts over; until `deadline`.
    private func churn(until deadline: ContinuousClock.Instant) async {
        let anchors = churnAnchors.withLock { $0 }
        let profile = spec.churn
        await withTaskGroup(of: Void.self) { group in
            for roomIndex in part.rooms(of: spec.effectiveRooms) {
                for slot in 0..<spec.audiencePerRoom {
                    group.addTask {
                        var generation = 0
                        while ContinuousClock.now < deadline {
                            generation += 1
                            do {
                                let viewer = try await self.audience(roomIndex: roomIndex, number: slot * 100_000 + generation)
                                await Self.sleep(seconds: Double.random(in: profile.stayMinSeconds...profile.stayMaxSeconds), until: deadline)
                                try? await viewer.client.call(.leaveRoom, RoomParams(roomId: viewer.roomId))
                                await self.dismiss(viewer)
                            } catch {
                                await Self.sleep(seconds: 1, until: deadline)
                            }
                        }
                    }
                }
            }
            for pair in 0..<(anchors.count / 2) {
                group.addTask {
                    let a = anchors[2 * pair]
                    let b = anchors[2 * pair + 1]
                    while ContinuousClock.now < deadline {
                        let forwardStart = MonotonicClock.microseconds()
                        self.watch(roomIndex: b.roomIndex, publisherId: a.publisherId!, since: forwardStart)
                        try? await self.startForward(a, into: b)
                        await Self.sleep(seconds: profile.forwardOnSeconds, until: deadline)
                        try? await a.client.call(.stopForwardStreamToRooms, RoomParams(roomId: a.roomId))
                        await Self.sleep(seconds: profile.forwardOffSeconds, until: deadline)
                        guard ContinuousClock.now < deadline else { break }
                        // The forward has stopped, so the link starts from rooms with no mirror.
                        let linkStart = MonotonicClock.microseconds()
                        self.watch(roomIndex: b.roomIndex, publisherId: a.publisherId!, since: linkStart)
                        self.watch(roomIndex: a.roomIndex, publisherId: b.publisherId!, since: linkStart)
                        let _: ConnectOtherRoomEvent? = try? await a.client.request(
                            .connectOtherRoom, ConnectOtherRoomParams(roomId: b.roomId, userId: b.client.userId))
                        await Self.sleep(seconds: profile.linkOnSeconds, until: deadline)
                        try? await a.client.call(.disconnectOtherRoom, LocalRoomParams(localRoomId: a.roomId))
                        await Self.sleep(seconds: profile.linkOffSeconds, until: deadline)
                    }
                }
            }
        }
    }

    static func sleep(seconds: Double, until deadline: ContinuousClock.Instant) async {
        let wake = min(deadline, ContinuousClock.now + .milliseconds(Int64(seconds * 1000)))
        try? await Task.sleep(until: wake, clock: .continuous)
    }
}
