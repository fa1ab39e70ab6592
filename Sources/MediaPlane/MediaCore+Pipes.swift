import RTPWire
import StreamCore

extension MediaCore {
    /// Connects this core to another one, before the first pipe outlet or remote source
    /// between them.
    func addLink(_ link: PipeLink) {
        links[link.peer] = link
    }

    /// Lets go of the link to `peer`. The routing removes the remote sources and outlets that
    /// use it first; any left (a command lost in a race) go with it, since a remote source keeps
    /// the link's placeholder as its transport. What is still in the rings is dropped unread.
    func removeLink(to peer: Int) {
        guard let link = links.removeValue(forKey: peer) else { return }
        for source in Array(sources.values) where source.upstream === link { removeSource(source) }
        for source in sources.values where source.outlets.contains(where: { $0.link === link }) {
            source.outlets.removeAll { $0.link === link }
        }
    }

    /// Takes what arrived on every link (bounded per link, so sockets get their turn): packets
    /// and sender reports for remote sources, keyframe requests for local ones.
    func drainLinks() {
        for link in links.values {
            var taken = 0
            while taken < Self.pipePacketsPerTurn, link.inbound.pop({ packet, tag in handlePiped(packet, tag: tag) }) {
                taken += 1
            }
        }
    }

    /// One packet from a link. Media and sender reports are for this shard's copy of a source
    /// (a remote source), keyframe requests for a source it owns; what finds neither (the copy or
    /// the source went while the message was in the ring) is counted.
    func handlePiped(_ packet: UnsafeMutableRawBufferPointer, tag: UInt64) {
        let kind = PipeTag.kind(of: tag)
        guard let source = sources[PipeTag.source(of: tag)], (source.upstream == nil) == PipeTag.isKeyframeRequest(kind) else {
            counters.drop(.pipeUnknownSource)
            return
        }
        let view = UnsafeRawBufferPointer(packet)
        switch kind {
        case PipeTag.media:
            guard let header = RTPHeader.parse(view) else {
                counters.drop(.malformedRTP)
                return
            }
            deliver(view, header: header, from: source)
        case PipeTag.senderReport:
            var iterator = RTCPPacketIterator(view)
            guard let first = iterator.next(), let report = RTCPSenderReport(view: first, in: view) else {
                counters.drop(.malformedRTCP)
                return
            }
            handleSenderReport(report, from: source)
        case PipeTag.keyframeRequest:
            // Counted where the subscriber asked; here it is only passed on, throttled.
            requestKeyframe(from: source)
        case PipeTag.keyframeRequestForWaitingSinks:
            // The remote core's repeater asks for sinks bound after the last keyframe: only a
            // request still in flight holds it back, not the quiet period that keyframe opened
            // (a PK's viewers are bound a few hundred milliseconds after the link starts, when
            // their answers land, and would otherwise wait for the repeater's next round).
            guard source.isVideo else { return }
            if source.throttle.shouldSendRequestForWaitingSinks(nowMs: nowMs) {
                sendPictureLossIndication(to: source)
            } else if source.throttle.deferredRequestMs != nil {
                noteDeferredKeyframeRequest(of: source)
            }
        default:
            counters.drop(.pipeUnknownSource)
        }
    }

    /// Links whose peer has packets it has not been woken for; the shell wakes each once.
    func takeLinksToWake(into peers: inout [Int]) {
        for link in links.values where link.wakePending {
            link.wakePending = false
            peers.append(link.peer)
        }
    }
}
