import Protocol

/// Every bind, unbind and sink removal goes through here, so that what follows from them is
/// decided where they happen: a track arriving over a media pipe is wanted from its node while
/// a sink here is bound to it, and a receiving WebRTC transport renegotiates when its sinks change.
extension RoomEngine {
    /// Feeds `sink` from `source`; `switching` moves a bound video sink at the source's next
    /// keyframe. A sink of a WebRTC subscriber whose client has not accepted its section yet is
    /// bound when it does (``subscriptionAnswered(transportId:facts:)``).
    mutating func bind(sink: UInt32, on transportId: Int, to source: UInt32, switching: Bool, into actions: inout [EngineAction]) {
        if negotiations[transportId] != nil, !negotiations[transportId]!.isAccepted(sink: sink) {
            negotiations[transportId]!.hold(sink: sink, source: source, switching: switching)
            return
        }
        bind(sink: sink, to: source, switching: switching, into: &actions)
    }

    /// Feeds `sink` from `source` now.
    mutating func bind(sink: UInt32, to source: UInt32, switching: Bool, into actions: inout [EngineAction]) {
        actions.append(.media(switching ? .switchSource(sink: sink, source: source) : .bind(sink: sink, source: source)))
        if switching, let previous = pipeBindings[sink], previous != source {
            // The sink is fed from `previous` until `source`'s keyframe: it stays wanted a while.
            pipeBindings[sink] = nil
            lingeringPipeDemand.append((previous, nil))
        } else {
            releasePipeDemand(sink: sink, into: &actions)
        }
        guard let origin = pipeOrigin(of: source) else { return }
        pipeBindings[sink] = source
        pipeDemand[source, default: 0] += 1
        if pipeDemand[source] == 1 { actions.append(.notify(.demand(PipeDemand(node: origin.node, ssrc: origin.ssrc, wanted: true)))) }
    }

    /// Stops feeding `sink`; its sequence state stays for the next bind.
    mutating func unbind(sink: UInt32, on transportId: Int, into actions: inout [EngineAction]) {
        // A bind still held was never made: nothing to undo in the media plane.
        if negotiations[transportId]?.release(sink: sink) == true { return }
        unbind(sink: sink, into: &actions)
    }

    /// Stops feeding `sink` now.
    mutating func unbind(sink: UInt32, into actions: inout [EngineAction]) {
        actions.append(.media(.unbind(sink: sink)))
        releasePipeDemand(sink: sink, into: &actions)
    }

    /// Deletes `sink` (unbound before, when it was bound); its section of a WebRTC offer goes
    /// inactive.
    mutating func removeSink(_ sink: SinkTrack, into actions: inout [EngineAction]) {
        actions.append(.media(.removeSink(sink.id)))
        releasePipeDemand(sink: sink.id, into: &actions)
        ssrcs.release(sink.outputSSRC)
        if let rtx = sink.rtxSSRC { ssrcs.release(rtx) }
        if negotiations[sink.transportId]?.remove(sink: sink.id, ssrcs: &ssrcs) == true {
            offerTracks(of: sink.transportId, into: &actions)
        }
    }

    /// Tells the control plane the tracks a receiving WebRTC transport should offer now.
    mutating func offerTracks(of transportId: Int, into actions: inout [EngineAction]) {
        guard let negotiation = negotiations[transportId] else { return }
        actions.append(.subscriberTracks(SubscriberTracks(transportId: transportId, session: negotiation.session, tracks: negotiation.offered)))
    }

    /// A pipe track's last local sink let go: its node stops sending it.
    private mutating func releasePipeDemand(sink: UInt32, into actions: inout [EngineAction]) {
        guard let source = pipeBindings.removeValue(forKey: sink) else { return }
        releasePipeDemand(source: source, into: &actions)
    }

    /// Releases the demand held for pipe tracks a sink switched away from, once
    /// ``pipeSwitchLingerMilliseconds`` passed (the new layer's keyframe, asked for at once, has
    /// come by then; keyframe requests repeat every few hundred milliseconds).
    mutating func releaseLingeringPipeDemand(now: EngineTime, into actions: inout [EngineAction]) {
        guard !lingeringPipeDemand.isEmpty else { return }
        var due: [UInt32] = []
        lingeringPipeDemand = lingeringPipeDemand.compactMap { entry in
            guard let since = entry.since else { return (entry.source, now) }
            guard now.milliseconds - since.milliseconds >= Self.pipeSwitchLingerMilliseconds else { return entry }
            due.append(entry.source)
            return nil
        }
        for source in due { releasePipeDemand(source: source, into: &actions) }
    }

    /// One count of a pipe track's demand let go; at the last its node stops sending it.
    private mutating func releasePipeDemand(source: UInt32, into actions: inout [EngineAction]) {
        guard let count = pipeDemand[source] else { return }
        if count > 1 {
            pipeDemand[source] = count - 1
            return
        }
        pipeDemand[source] = nil
        if let origin = pipeOrigin(of: source) { actions.append(.notify(.demand(PipeDemand(node: origin.node, ssrc: origin.ssrc, wanted: false)))) }
    }

    /// A pipe track went with the last mirror showing it: the sending node drops its pipe sink
    /// itself, so nothing is said.
    mutating func forgetPipeDemand(source: UInt32) {
        pipeDemand[source] = nil
        pipeBindings = pipeBindings.filter { $0.value != source }
        lingeringPipeDemand.removeAll { $0.source == source }
    }

    /// For a track arriving over a media pipe: the node that sends it and its SSRC on the pipe.
    func pipeOrigin(of source: UInt32) -> (node: String, ssrc: UInt32)? {
        guard remoteSourceUsers[source] != nil, let key = remoteSources.first(where: { $0.value == source })?.key,
            let node = pipeTransports.first(where: { $0.value == key.transportId })?.key
        else { return nil }
        return (node, key.ssrc)
    }
}
