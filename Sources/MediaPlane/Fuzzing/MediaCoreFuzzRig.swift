import RTPWire
import SecureTransport

/// A media core without sockets or threads, set up as one room, for fuzzing the per-packet path
/// with datagrams, control-plane changes and time.
///
/// The publisher (transport 1) has a large and a small video layer (sources 10 and 11) and audio
/// (source 12); subscriber `i` has transport `2 + i`, a video sink `20 + i` on layer `i % 2` and
/// an audio sink `40 + i`. The rig plays both peers: it protects what they send when their
/// transport is SRTP, and opens what the relay sent them, so ``deliveries`` reads as the peers
/// read it. Two rigs with the same layout and script differ only in ``handlesBatches``, which is
/// what the `media` fuzz target compares. With ``MediaFuzzLayout/oddSubscribersOnSecondShard``,
/// subscribers 1, 3, ... live on a second core that gets the publisher's packets over a link,
/// drained after every step as the shell drains its links once per turn.
@_spi(Fuzzing) public final class MediaCoreFuzzRig {
    public static let maximumSubscribers = 6
    public static let publisherTransport = 1
    public static let largeVideoSSRC: UInt32 = 0x0000_0B16
    public static let smallVideoSSRC: UInt32 = 0x0000_5A11
    public static let audioSSRC: UInt32 = 0x0000_A0D1
    /// The large layer's RFC 4588 stream, when the layout has one.
    public static let retransmissionSSRC: UInt32 = 0x0000_0B17
    public static let videoPayloadType: UInt8 = 96
    public static let retransmissionPayloadType: UInt8 = 97
    public static let audioPayloadType: UInt8 = 111
    /// The header-extension id of the publisher's transport-wide sequence number.
    public static let transportSequenceExtensionId: UInt8 = 3
    /// Where the publisher sends from; a subscriber sends from ``subscriberEndpoint(_:)``.
    public static let publisherEndpoint = PeerEndpoint(ip: 0x0A00_0001, port: 5000)
    /// An address no transport knows.
    public static let strangerEndpoint = PeerEndpoint(ip: 0x0A00_0063, port: 5000)

    public static func subscriberEndpoint(_ subscriber: Int) -> PeerEndpoint {
        PeerEndpoint(ip: 0x7F00_0001, port: UInt16(6000 + subscriber))
    }

    /// The SSRCs subscriber `i`'s sinks send under: video, its retransmissions, audio.
    public static func videoSSRC(ofSubscriber subscriber: Int) -> UInt32 { 0x2000 + UInt32(subscriber) }
    public static func retransmissionSSRC(ofSubscriber subscriber: Int) -> UInt32 { 0x3000 + UInt32(subscriber) }
    public static func audioSSRC(ofSubscriber subscriber: Int) -> UInt32 { 0x4000 + UInt32(subscriber) }

    public let layout: MediaFuzzLayout
    /// Whether a receive batch is handled as the shell handles one (datagrams back to back in one
    /// buffer, as a coalesced read leaves them; forward runs; plain payloads sent from the batch),
    /// or datagram by datagram, each in a buffer of exactly its size and flushed at once.
    public let handlesBatches: Bool
    /// What the peers received, in the order it was sent.
    public private(set) var deliveries: [MediaFuzzDelivery] = []

    let output = RecordingOutput()
    let core: MediaCore
    /// The second shard, when the layout has one, and what it sent.
    let secondShard: MediaCore?
    let secondShardOutput = RecordingOutput()
    var nowMs: Int64 = 1_000_000
    /// The peers' sessions per SRTP transport: the receiver opens what the relay sent, the sender
    /// protects what the peer sends.
    var peerReceivers: [Int: SRTPSession] = [:]
    var peerSenders: [Int: SRTPSession] = [:]
    /// Every SRTP RTP datagram opened, as sent and as opened, per transport, by SSRC and
    /// sequence number.
    var sealed: [Int: [UInt64: (wire: [UInt8], opened: [UInt8])]] = [:]

    public init(layout: MediaFuzzLayout, handlesBatches: Bool) throws {
        precondition(layout.subscribers.count <= Self.maximumSubscribers, "too many subscribers")
        self.layout = layout
        self.handlesBatches = handlesBatches
        var configuration = MediaPlaneConfiguration()
        configuration.segmentationOffload = layout.segmentPadding > 0 ? .on : .off
        configuration.segmentPaddingBytes = layout.segmentPadding
        configuration.receiveOffload = .off
        configuration.webRTCPort = nil
        // Events nobody reads are dropped, not kept: an input must not grow the next one's memory.
        let (_, events) = AsyncStream.makeStream(of: MediaPlaneEvent.self, bufferingPolicy: .bufferingNewest(0))
        core = MediaCore(configuration: configuration, reports: ReportStore(), output: output, hasWebRTCSocket: false, events: events, randomSeed: 42)
        secondShard =
            layout.oddSubscribersOnSecondShard
            ? MediaCore(configuration: configuration, reports: ReportStore(), output: secondShardOutput, hasWebRTCSocket: false, events: events, randomSeed: 43)
            : nil
        for shard in shards {
            shard.advanceClock(monotonicMs: nowMs, unixMs: nowMs + 1_700_000_000_000)
            shard.startTimers()
        }
        if let secondShard {
            // As ShardRouting joins two shards: a pair of rings, one each way.
            let forward = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
            let backward = PacketRing(slotCount: 1024, slotCapacity: MediaCore.sendSlotCapacity)
            core.apply(.addLink(PipeLinkHandoff(link: PipeLink(peer: 1, outbound: forward, inbound: backward))))
            secondShard.apply(.addLink(PipeLinkHandoff(link: PipeLink(peer: 0, outbound: backward, inbound: forward))))
        }
        try addTransport(
            Self.publisherTransport, remote: Self.publisherEndpoint, profile: layout.publisherUsesSRTP ? .aeadAES128GCM : nil, rewritesExtensions: false)
        // Transport-wide feedback to the publisher: inputs whose extension blocks name this id
        // drive the arrival record and the feedback the timer writes.
        core.apply(
            .setCongestionControl(
                id: Self.publisherTransport, CongestionControlSpec(receivedSequenceExtensionId: Self.transportSequenceExtensionId)))
        for index in 0..<3 { addSource(index) }
        for subscriber in layout.subscribers.indices { try setUpSubscriber(subscriber) }
        settle()
    }

    /// Both shards, the publisher's first.
    var shards: [MediaCore] { secondShard.map { [core, $0] } ?? [core] }

    /// The core subscriber `subscriber` lives on.
    func shard(of subscriber: Int) -> MediaCore {
        guard let secondShard, subscriber % 2 == 1 else { return core }
        return secondShard
    }

    /// The core that owns `transport`.
    func shard(ofTransport transport: Int) -> MediaCore {
        transport == Self.publisherTransport ? core : shard(of: transport - 2)
    }

    deinit {
        // Sources and sinks hold each other; removing their transports parts them, as the control
        // plane does, so that one input's retransmission buffers do not outlive it.
        for shard in shards {
            for id in Array(shard.transports.keys) { shard.apply(.removeTransport(id: id)) }
        }
    }

    // MARK: Input

    /// Hands `datagrams` to the core as one read from `transport`'s socket, sent by its peer or by
    /// a stranger, each protected first when the transport is SRTP (as far as it protects); then
    /// sends what the core queued.
    public func receive(_ datagrams: [[UInt8]], on transport: Int, fromPeer: Bool) {
        let core = shard(ofTransport: transport)
        guard let state = core.transports[transport] else { return }
        let endpoint =
            !fromPeer
            ? Self.strangerEndpoint
            : transport == Self.publisherTransport ? Self.publisherEndpoint : Self.subscriberEndpoint(transport - 2)
        let sent = datagrams.map { protect($0, on: transport) }
        if handlesBatches {
            let total = sent.reduce(0) { $0 + $1.count }
            let batch = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 16)
            defer { batch.deallocate() }
            var offset = 0
            for datagram in sent {
                datagram.withUnsafeBytes { if let base = $0.baseAddress { (batch + offset).copyMemory(from: base, byteCount: $0.count) } }
                offset += datagram.count
            }
            core.handlesReceiveBatch = true
            offset = 0
            for datagram in sent {
                core.handleDatagram(on: state, buffer: batch + offset, length: datagram.count, from: endpoint)
                offset += datagram.count
            }
            core.forwardRun()
            core.handlesReceiveBatch = false
            core.flushAll()
        } else {
            for datagram in sent {
                // Exactly the datagram's size: a read or write past it is AddressSanitizer's to find.
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, datagram.count), alignment: 16)
                datagram.withUnsafeBytes { if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: $0.count) } }
                core.handleDatagram(on: state, buffer: buffer, length: datagram.count, from: endpoint)
                core.flushAll()
                buffer.deallocate()
            }
        }
        settle()
    }

    /// Moves the clock on by `milliseconds` and runs the core's timers, as the shell does after
    /// every wake-up.
    public func advance(milliseconds: Int) {
        nowMs += Int64(max(0, milliseconds))
        for shard in shards {
            shard.advanceClock(monotonicMs: nowMs, unixMs: nowMs + 1_700_000_000_000)
            shard.runTimers()
            shard.flushAll()
        }
        settle()
    }

    /// Applies what the control plane does, as commands from the mailbox.
    public func apply(_ change: MediaFuzzChange) throws {
        let count = layout.subscribers.count
        guard count > 0 else { return }
        /// The subscriber's index, its core and its video or audio sink.
        func target(_ subscriber: Int, video: Bool) -> (index: Int, core: MediaCore, sink: UInt32) {
            let index = subscriber % count
            return (index, shard(of: index), UInt32((video ? 20 : 40) + index))
        }
        switch change {
        case .switchLayer(let subscriber):
            let (_, core, sink) = target(subscriber, video: true)
            guard let current = core.sinks[sink]?.source else { break }
            core.apply(.switchSource(sink: sink, source: current.id == 10 ? 11 : 10))
        case .unbind(let subscriber, let video):
            let (_, core, sink) = target(subscriber, video: video)
            core.apply(.unbind(sink: sink))
        case .bind(let subscriber, let video, let layer):
            let (_, core, sink) = target(subscriber, video: video)
            core.apply(.bind(sink: sink, source: video ? UInt32(10 + layer % 2) : 12))
        case .toggleSink(let subscriber, let video):
            let (index, core, sink) = target(subscriber, video: video)
            if core.sinks[sink] != nil {
                core.apply(.removeSink(id: sink))
            } else {
                addSinks(of: index, video: video, audio: !video)
            }
        case .toggleSource(let index):
            if core.sources[UInt32(10 + index % 3)] != nil { removeSource(index % 3) } else { addSource(index % 3) }
        case .requestKeyframe(let layer):
            core.apply(.requestKeyframe(source: UInt32(10 + layer % 2)))
        case .restartAtKeyframe(let subscriber):
            let (_, core, sink) = target(subscriber, video: true)
            core.apply(.restartSinkAtKeyframe(sink: sink))
        case .reconnect(let subscriber):
            let (index, core, _) = target(subscriber, video: true)
            core.apply(.removeTransport(id: 2 + index))
            try setUpSubscriber(index)
        }
        settle()
    }

    /// What the shell does after every turn: each shard takes what its links carried (the second
    /// shard the publisher's packets, then the first the keyframe requests those caused), then sends.
    func settle() {
        for shard in shards { shard.flushAll() }
        if let secondShard {
            secondShard.drainLinks()
            secondShard.flushAll()
            core.drainLinks()
            core.flushAll()
        }
        collect()
    }

    // MARK: Setting up

    /// The publisher's source `index`: 0 the large layer, 1 the small one, 2 the audio.
    func sourceSpec(_ index: Int) -> MediaSourceSpec {
        switch index {
        case 0:
            var spec = MediaSourceSpec(
                id: 10, transportId: Self.publisherTransport, ssrc: Self.largeVideoSSRC, isVideo: true, codec: layout.codec, clockRate: 90_000)
            if layout.retransmission { spec.retransmission = (Self.retransmissionSSRC, Self.retransmissionPayloadType, Self.videoPayloadType) }
            return spec
        case 1:
            return MediaSourceSpec(
                id: 11, transportId: Self.publisherTransport, ssrc: Self.smallVideoSSRC, isVideo: true, codec: layout.codec, clockRate: 90_000)
        default:
            return MediaSourceSpec(
                id: 12, transportId: Self.publisherTransport, ssrc: Self.audioSSRC, isVideo: false, codec: "opus", clockRate: 48_000,
                audioLevelExtensionId: layout.audioLevelExtensionId)
        }
    }

    /// Publishes source `index` on the first shard and, with a second shard, mirrors it there
    /// over the link, as ShardRouting does for a subscriber on another shard.
    func addSource(_ index: Int) {
        let spec = sourceSpec(index)
        core.apply(.addSource(spec))
        guard let secondShard else { return }
        secondShard.apply(.addRemoteSource(spec, peer: 0))
        core.apply(.addPipeOutlet(source: spec.id, peer: 1))
    }

    func removeSource(_ index: Int) {
        let id = sourceSpec(index).id
        if let secondShard {
            core.apply(.removePipeOutlet(source: id, peer: 1))
            secondShard.apply(.removeSource(id: id))
        }
        core.apply(.removeSource(id: id))
    }

    func setUpSubscriber(_ subscriber: Int) throws {
        let kind = layout.subscribers[subscriber]
        let profile: SRTPProfile? =
            switch kind {
            case .plain: nil
            case .gcm, .gcmRewritingExtensions: .aeadAES128GCM
            case .aesCM: .aesCM128HMACSHA1_80
            }
        try addTransport(2 + subscriber, remote: Self.subscriberEndpoint(subscriber), profile: profile, rewritesExtensions: kind == .gcmRewritingExtensions)
        addSinks(of: subscriber, video: true, audio: true)
    }

    func addSinks(of subscriber: Int, video: Bool, audio: Bool) {
        let transport = 2 + subscriber
        let core = shard(of: subscriber)
        if video {
            let id = UInt32(20 + subscriber)
            core.apply(
                .addSink(
                    MediaSinkSpec(
                        id: id, transportId: transport, outputSSRC: Self.videoSSRC(ofSubscriber: subscriber), isVideo: true, clockRate: 90_000,
                        startsFromRecentKeyframe: subscriber % 2 == 0)))
            if layout.retransmission {
                core.apply(
                    .setSinkRetransmission(sink: id, ssrc: Self.retransmissionSSRC(ofSubscriber: subscriber), payloadType: Self.retransmissionPayloadType))
            }
            core.apply(.bind(sink: id, source: UInt32(10 + subscriber % 2)))
        }
        if audio {
            let id = UInt32(40 + subscriber)
            core.apply(
                .addSink(MediaSinkSpec(id: id, transportId: transport, outputSSRC: Self.audioSSRC(ofSubscriber: subscriber), isVideo: false, clockRate: 48_000))
            )
            core.apply(.bind(sink: id, source: 12))
        }
    }

    /// Adds and connects a transport; an SRTP one gets the relay's sessions and its peer's
    /// mirror sessions, keyed per transport. Every peer's address is granted, as by the room
    /// server, so that the relay sends to it from the start.
    func addTransport(_ id: Int, remote: PeerEndpoint, profile: SRTPProfile?, rewritesExtensions: Bool) throws {
        let core = shard(ofTransport: id)
        peerReceivers[id] = nil
        peerSenders[id] = nil
        sealed[id] = nil
        guard let profile else {
            core.apply(.addTransport(id: id, fd: -1, port: 40_000 + id, profile: nil, outbound: nil))
            core.apply(.connectTransport(id: id, remote: remote, inbound: nil, addressGranted: true))
            return
        }
        let relayKeys = (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ id) }
        let peerKeys = (0..<profile.keyingMaterialLength).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7 &* id) }
        let outbound = try SRTPSession(profile: profile, keyingMaterial: relayKeys, direction: .sender)
        let inbound = try SRTPSession(profile: profile, keyingMaterial: peerKeys, direction: .receiver)
        peerReceivers[id] = try SRTPSession(profile: profile, keyingMaterial: relayKeys, direction: .receiver, replayWindowSize: 1024)
        peerSenders[id] = try SRTPSession(profile: profile, keyingMaterial: peerKeys, direction: .sender)
        core.apply(.addTransport(id: id, fd: -1, port: 40_000 + id, profile: profile, outbound: SRTPSessionHandoff(outbound)))
        if rewritesExtensions, let transport = core.transports[id] {
            // As a WebRTC subscriber is set up: extensions rewritten, the audio level under id 1.
            transport.rewritesExtensions = true
            transport.audioLevelExtensionId = 1
            // And transport-wide numbers stamped, for the estimate its feedback drives.
            core.apply(.setCongestionControl(id: id, CongestionControlSpec(sentSequenceExtensionId: Self.transportSequenceExtensionId)))
        }
        core.apply(.connectTransport(id: id, remote: remote, inbound: SRTPSessionHandoff(inbound), addressGranted: true))
    }

    // MARK: The peers

    /// The datagram as `transport`'s peer sends it: protected when the transport is SRTP and the
    /// datagram is long enough to be, else as it is.
    func protect(_ datagram: [UInt8], on transport: Int) -> [UInt8] {
        guard let sender = peerSenders[transport], datagram.count >= 8 else { return datagram }
        var bytes = datagram + [UInt8](repeating: 0, count: 64)
        var length = datagram.count
        let status = bytes.withUnsafeMutableBytes { raw in
            MediaFuzzDelivery.isRTCP(datagram)
                ? sender.protectRTCP(raw.baseAddress!, length: &length, capacity: raw.count)
                : sender.protectRTP(raw.baseAddress!, length: &length, capacity: raw.count)
        }
        guard status == .ok else { return datagram }
        return Array(bytes[0..<length])
    }

    /// Moves what the core sent into ``deliveries``, opened by the receiving peer.
    func collect() {
        collect(from: output)
        collect(from: secondShardOutput)
    }

    func collect(from output: RecordingOutput) {
        for datagram in output.datagrams {
            let wire = datagram.bytes
            guard let receiver = peerReceivers[datagram.transportId], wire.count >= 12 else {
                deliveries.append(MediaFuzzDelivery(transport: datagram.transportId, bytes: wire, status: nil, repeatsEarlierDatagram: false))
                continue
            }
            var bytes = wire
            var length = bytes.count
            let isRTCP = MediaFuzzDelivery.isRTCP(wire)
            let status = bytes.withUnsafeMutableBytes { raw in
                isRTCP ? receiver.unprotectRTCP(raw.baseAddress!, length: &length) : receiver.unprotectRTP(raw.baseAddress!, length: &length)
            }
            // SSRC and sequence number travel in the clear.
            let index = UInt64(MediaFuzzDelivery.word(wire, at: 8)) << 16 | UInt64(wire[2]) << 8 | UInt64(wire[3])
            var opened = status == .ok ? Array(bytes[0..<length]) : wire
            var repeats = false
            if !isRTCP {
                if status == .ok {
                    sealed[datagram.transportId, default: [:]][index] = (wire, opened)
                } else if status == .replayed, let earlier = sealed[datagram.transportId]?[index], earlier.wire == wire {
                    // The same bytes as before: the peer reads what it read then.
                    repeats = true
                    opened = earlier.opened
                }
            }
            deliveries.append(MediaFuzzDelivery(transport: datagram.transportId, bytes: opened, status: status, repeatsEarlierDatagram: repeats))
        }
        output.datagrams.removeAll(keepingCapacity: true)
    }
}
