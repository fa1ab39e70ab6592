import RTPWire

extension MediaCore {
    /// Connects this core to another one; done once, before either runs.
    func addLink(_ link: PipeLink) {
        links[link.peer] = link
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

    /// One packet from a link.
    func handlePiped(_ packet: UnsafeMutableRawBufferPointer, tag: UInt64) {
        guard let source = sources[PipeTag.source(of: tag)] else { return }
        let view = UnsafeRawBufferPointer(packet)
        switch PipeTag.kind(of: tag) {
        case PipeTag.media:
            guard source.upstream != nil, let header = RTPHeader.parse(view) else { return }
            deliver(view, header: header, from: source)
        case PipeTag.senderReport:
            guard source.upstream != nil else { return }
            var iterator = RTCPPacketIterator(view)
            if let first = iterator.next(), let report = RTCPSenderReport(view: first, in: view) { handleSenderReport(report, from: source) }
        case PipeTag.keyframeRequest:
            // Counted where the subscriber asked; here it is only passed on, throttled.
            guard source.upstream == nil else { return }
            requestKeyframe(from: source)
        default:
            return
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
