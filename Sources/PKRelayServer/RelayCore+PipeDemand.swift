import RoomEngine

/// Tracks cross a media pipe only while the receiving node has a subscriber bound to them: this
/// node follows its sinks' bindings to pipe tracks and tells the sending node when a track
/// becomes wanted or unwanted.
extension RelayCore {
    func trackPipeDemand(_ actions: [EngineAction]) {
        for action in actions {
            switch action {
            case .media(.bind(let sink, let source)), .media(.switchSource(let sink, let source)):
                release(sink: sink)
                guard engine.remoteSourceOrigin(source) != nil else { continue }
                pipeSinkSources[sink] = source
                pipeSourceDemand[source, default: 0] += 1
                if pipeSourceDemand[source] == 1 { sendDemand(source: source, wanted: true) }
            case .media(.unbind(let sink)), .media(.removeSink(let sink)):
                release(sink: sink)
            case .media(.removeSource(let source)):
                // Gone with its mirror: the sending node drops its pipe sink itself.
                pipeSourceDemand[source] = nil
                for (sink, bound) in pipeSinkSources where bound == source { pipeSinkSources[sink] = nil }
            default:
                continue
            }
        }
    }

    private func release(sink: UInt32) {
        guard let source = pipeSinkSources.removeValue(forKey: sink), let count = pipeSourceDemand[source] else { return }
        if count > 1 {
            pipeSourceDemand[source] = count - 1
        } else {
            pipeSourceDemand[source] = nil
            sendDemand(source: source, wanted: false)
        }
    }

    private func sendDemand(source: UInt32, wanted: Bool) {
        guard let origin = engine.remoteSourceOrigin(source), let node = peerPipes.first(where: { $0.value.transportId == origin.transportId })?.key else { return }
        var message = PeerMessage(.demand)
        message.ssrc = origin.ssrc
        message.wanted = wanted
        peers?.outbox.send(message, to: node)
    }
}
