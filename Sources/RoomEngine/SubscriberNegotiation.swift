import Protocol

/// The engine's side of one receiving WebRTC transport's SDP: which mid each sink's section has,
/// which payload type each codec is sent with (one BUNDLE shares one payload-type space while
/// publishers number freely), and the SSRC of each video sink's retransmission stream.
///
/// A pure value: sinks come and go through ``describe(_:publisher:streamIndex:sinkId:ssrcs:)``
/// and ``remove(sink:ssrcs:)``, the client's answers through ``answered(_:)``; what the media plane
/// must be told is returned.
struct SubscriberNegotiation: Sendable {
    let session: SessionID
    /// The tracks to offer, by sink id.
    private(set) var tracks: [UInt32: OfferedTrack] = [:]
    /// The mid given to each sink; a sink keeps its mid while it exists.
    private var mids: [UInt32: String] = [:]
    private var nextMid = 0
    /// The sections of the last answered offer.
    private var answeredSlots: [OfferedSlot] = []
    /// The codec each payload type means in this transport's offers ("name/clock/channels/fmtp").
    private var payloadTypeCodecs: [UInt8: String] = [:]
    /// The payload type each sink is sent with.
    private var sinkPayloadTypes: [UInt32: UInt8] = [:]
    /// The SSRC of each video sink's RFC 4588 stream.
    private var sinkRetransmissionSSRCs: [UInt32: UInt32] = [:]
    /// Binds held until the client has accepted the sink's section: the source, and whether
    /// it is a layer switch. A packet sent before the answer reaches a client that cannot place
    /// it (the first keyframe among them), so a new track's first packet is the keyframe the
    /// bind asks for once the client can use it.
    private var heldBinds: [UInt32: (source: UInt32, switching: Bool)] = [:]

    /// What a player's offer fixed (mids and payload types), for a transport whose client offers.
    var player: PlayerLayout?

    init(session: SessionID) { self.session = session }

    /// The tracks in mid order, as the offer lists them.
    var offered: [OfferedTrack] { tracks.values.sorted { (Int($0.mid) ?? 0, $0.mid) < (Int($1.mid) ?? 0, $1.mid) } }

    /// Describes what a sink sends now (its subscription was bound): its mid, and the payload
    /// type its codec has here. Returns the track and the payload type the media plane must
    /// rewrite the sink's packets to, when that is new.
    /// Returns nil for a player's transport whose offer takes no such track (no section of its
    /// kind, or not its codec): the sink is then never sent.
    mutating func describe(
        _ track: SubscribedTrack, publisher: String, streamIndex: StreamIndex, sinkId: UInt32, ssrcs: inout SSRCGenerator
    ) -> (track: OfferedTrack, rewrite: UInt8?)? {
        let streamID = streamIndex == .main ? publisher : "\(publisher)-\(streamIndex.rawValue)"
        let channels = track.kind == .audio ? (track.channels ?? (track.codec.lowercased() == "opus" ? 2 : nil)) : nil
        let codec = "\(track.codec.lowercased())/\(track.clockRate)/\(channels ?? 0)/\(track.parameters ?? "")"
        let publisherPayloadType = UInt8(clamping: track.payloadType)
        let mid: String
        let payloadType: UInt8
        let rewrite: UInt8?
        var rtxPayloadType: UInt8?
        if let player {
            // The player numbered everything: its mid for the kind, its payload types.
            guard
                let (playerMid, playerCodec) = player.codec(
                    for: track.kind, name: track.codec, clockRate: track.clockRate, channels: channels, parameters: track.parameters)
            else { return nil }
            mid = playerMid
            mids[sinkId] = mid
            payloadType = playerCodec.payloadType
            rewrite = payloadType != publisherPayloadType || (sinkPayloadTypes[sinkId].map { $0 != payloadType } ?? false) ? payloadType : nil
            sinkPayloadTypes[sinkId] = payloadType
            rtxPayloadType = track.kind == .video ? playerCodec.retransmissionPayloadType : nil
        } else {
            mid = self.mid(for: sinkId, kind: track.kind)
            (payloadType, rewrite) = self.payloadType(for: codec, publisherPayloadType: publisherPayloadType, sinkId: sinkId)
            if track.kind == .video { rtxPayloadType = retransmissionPayloadType(for: payloadType, clockRate: track.clockRate) }
        }
        var rtxSSRC: UInt32?
        if rtxPayloadType != nil {
            if let existing = sinkRetransmissionSSRCs[sinkId] {
                rtxSSRC = existing
            } else {
                let drawn = ssrcs.next()
                sinkRetransmissionSSRCs[sinkId] = drawn
                rtxSSRC = drawn
            }
        }
        let offered = OfferedTrack(
            sinkId: sinkId, mid: mid, kind: track.kind, codec: track.codec, clockRate: track.clockRate, channels: channels,
            formatParameters: track.parameters, payloadType: payloadType, rtxPayloadType: rtxPayloadType, ssrc: track.ssrc, rtxSSRC: rtxSSRC,
            cname: publisher, streamID: streamID, trackID: "\(streamID)-\(track.kind.rawValue)")
        return (offered, rewrite)
    }

    /// Stores a sink's track; true when the offer changes.
    mutating func store(_ track: OfferedTrack) -> Bool {
        guard tracks[track.sinkId] != track else { return false }
        tracks[track.sinkId] = track
        return true
    }

    /// Whether a sink's section is active in the last offer the client answered.
    func isAccepted(sink: UInt32) -> Bool {
        guard let mid = mids[sink] else { return false }
        return answeredSlots.contains { $0.mid == mid && $0.isActive }
    }

    /// Holds a bind until the client accepts the sink's section (replacing one held before).
    mutating func hold(sink: UInt32, source: UInt32, switching: Bool) {
        heldBinds[sink] = (source, switching || heldBinds[sink]?.switching == true)
    }

    /// Drops a held bind (the sink was unbound); true when there was one.
    @discardableResult
    mutating func release(sink: UInt32) -> Bool { heldBinds.removeValue(forKey: sink) != nil }

    /// A sink went: its section goes inactive in the next offer. True when the offer changes.
    mutating func remove(sink: UInt32, ssrcs: inout SSRCGenerator) -> Bool {
        heldBinds[sink] = nil
        mids[sink] = nil
        sinkPayloadTypes[sink] = nil
        if let rtx = sinkRetransmissionSSRCs.removeValue(forKey: sink) { ssrcs.release(rtx) }
        return tracks.removeValue(forKey: sink) != nil
    }

    /// The client answered an offer: its sections are known, each accepted sink retransmits as
    /// the answer allows (the RTX stream where the client kept the offered rtx, else the packet
    /// again), and the binds held for sinks it accepted are returned, in sink order, for the
    /// engine to make now. A video sink already bound whose section became active only now
    /// restarts at a keyframe: what it was sent before reached a client that could not place it.
    mutating func answered(_ facts: SubscriptionAnswerFacts) -> (media: [MediaAction], binds: [(sink: UInt32, source: UInt32, switching: Bool)]) {
        answeredSlots = facts.slots
        var actions: [MediaAction] = []
        var binds: [(sink: UInt32, source: UInt32, switching: Bool)] = []
        for (sinkId, mid) in mids.sorted(by: { $0.key < $1.key }) {
            guard let track = tracks[sinkId], facts.accepted.contains(mid) else { continue }
            if let rtxSSRC = track.rtxSSRC, let rtxPayloadType = track.rtxPayloadType {
                let kept = facts.retransmission.contains(mid)
                actions.append(.setSinkRetransmission(sink: sinkId, ssrc: kept ? rtxSSRC : 0, payloadType: kept ? rtxPayloadType : 0))
            }
            if let held = heldBinds.removeValue(forKey: sinkId) {
                binds.append((sinkId, held.source, held.switching))
            } else if facts.newlyActive.contains(mid), track.kind == .video {
                actions.append(.restartSinkAtKeyframe(sink: sinkId))
            }
        }
        return (actions, binds)
    }

    /// A sink's mid: its own, else an inactive answered section of its kind nobody holds (the
    /// client has seen it stopped, so reusing it keeps the SDP from growing), else a new one.
    private mutating func mid(for sinkId: UInt32, kind: TrackKind) -> String {
        if let existing = mids[sinkId] { return existing }
        let taken = Set(mids.values)
        let mid: String
        if let free = answeredSlots.first(where: { !$0.isActive && $0.kind == kind && !taken.contains($0.mid) }) {
            mid = free.mid
        } else {
            mid = String(nextMid)
            nextMid += 1
        }
        mids[sinkId] = mid
        return mid
    }

    /// The lowest dynamic payload type (96-127) this transport's offers do not use yet.
    private var freeDynamicPayloadType: UInt8? { (UInt8(96)...UInt8(127)).first { payloadTypeCodecs[$0] == nil } }

    /// The payload type a sink is offered and sent with: the publisher's own when this
    /// transport's offers do not use it for another codec, else one they already give this
    /// codec, else a free dynamic one. `rewrite` is set when the media plane must be told.
    private mutating func payloadType(for codec: String, publisherPayloadType: UInt8, sinkId: UInt32) -> (chosen: UInt8, rewrite: UInt8?) {
        let chosen: UInt8
        if let current = sinkPayloadTypes[sinkId], payloadTypeCodecs[current] == codec {
            chosen = current
        } else if payloadTypeCodecs[publisherPayloadType] == nil || payloadTypeCodecs[publisherPayloadType] == codec {
            chosen = publisherPayloadType
        } else if let shared = payloadTypeCodecs.first(where: { $0.value == codec })?.key {
            chosen = shared
        } else if let free = freeDynamicPayloadType {
            chosen = free
        } else {
            // Every dynamic number means something else here: the publisher's number is offered
            // as it is, and the offer's own checks refuse the clash.
            chosen = publisherPayloadType
        }
        payloadTypeCodecs[chosen] = codec
        var rewrite: UInt8?
        if sinkPayloadTypes[sinkId] != chosen {
            if chosen != publisherPayloadType || sinkPayloadTypes[sinkId] != nil { rewrite = chosen }
            sinkPayloadTypes[sinkId] = chosen
        }
        return (chosen, rewrite)
    }

    /// The rtx payload type paired with `payloadType` in this transport's offers: one per video
    /// payload type, shared by every section that sends it; nil when no dynamic number is free.
    private mutating func retransmissionPayloadType(for payloadType: UInt8, clockRate: Int) -> UInt8? {
        let codec = "rtx/\(clockRate)/0/apt=\(payloadType)"
        if let existing = payloadTypeCodecs.first(where: { $0.value == codec })?.key { return existing }
        guard let free = freeDynamicPayloadType else { return nil }
        payloadTypeCodecs[free] = codec
        return free
    }
}
