import ICE
import SecureTransport
import StreamCore

extension MediaCore {
    /// Applies one command of the control plane. Sockets are the shell's: it registers a new
    /// transport's socket before this and closes a removed one after.
    func apply(_ command: MediaCommand) {
        if forwardRunCount > 0 { forwardRun() }
        switch command {
        case .addTransport(let id, let fd, _, let profile, let outbound, let sendFD):
            let transport = TransportState(
                id: id, fd: fd, sendFD: sendFD, profile: profile, outbound: outbound?.take(), rtcpSSRC: nextRandom() | 1,
                slotCount: max(1, configuration.sendBatchSize), slotCapacity: Self.sendSlotCapacity)
            transports[id] = transport
        case .connectTransport(let id, let remote, let inbound, let addressGranted):
            guard let transport = transports[id] else { return }
            transport.connected = true
            if let remote {
                transport.remote = remote
                transport.remoteKey = remote.key
                transport.remoteProven = addressGranted
                output.peerFixed(on: transport)
            }
            if let inbound { transport.inbound = inbound.take() }
        case .removeTransport(let id):
            guard let transport = transports.removeValue(forKey: id) else { return }
            // Every source and sink goes, simulcast layers still waiting for their SSRC included:
            // one left behind would trap on its `unowned` transport at its next use.
            for source in Array(transport.sources.values) + transport.ridSources { removeSource(source) }
            for sink in Array(transport.sinks.values) { removeSink(sink) }
            transport.pending = 0
            if transport.pacedListed { pacedTransports.removeAll { $0 === transport } }
            if transport.feedbackRecorder != nil { feedbackTransports.removeAll { $0 === transport } }
            if transport.sentSequenceExtensionId != 0 { setSentSequenceExtension(0, on: transport) }
            if transport.sharesSocket { forgetWebRTCRoutes(of: transport) }
        case .addWebRTCTransport(let id, let agent, let audioLevelExtensionId):
            guard hasWebRTCSocket else { return }
            let transport = TransportState(
                id: id, fd: -1, profile: .aeadAES128GCM, outbound: nil, rtcpSSRC: nextRandom() | 1,
                slotCount: max(1, configuration.sendBatchSize), slotCapacity: Self.sendSlotCapacity, sharesSocket: true)
            transport.ice = agent
            // Its address is only ever one that passed an ICE check (MESSAGE-INTEGRITY with the
            // transport's password): proved by construction.
            transport.remoteProven = true
            transport.rewritesExtensions = true
            transport.audioLevelExtensionId = audioLevelExtensionId
            transports[id] = transport
            webRTCByUfrag[ICEUsernameKey.key(ofUfrag: agent.localCredentials.ufrag.utf8)] = transport
        case .restartICE(let id, let local, let remote):
            guard let transport = transports[id], let agent = transport.ice else { return }
            let old = ICEUsernameKey.key(ofUfrag: agent.localCredentials.ufrag.utf8)
            if webRTCByUfrag[old] === transport { webRTCByUfrag[old] = nil }
            transport.ice!.restart(localCredentials: local, remoteCredentials: remote)
            webRTCByUfrag[ICEUsernameKey.key(ofUfrag: local.ufrag.utf8)] = transport
        case .setRemoteICECredentials(let id, let credentials):
            transports[id]?.ice?.setRemoteCredentials(credentials)
            transports[id]?.ice?.restartConnectTimer(at: nanoseconds(nowMs))
        case .connectWebRTCTransport(let id, let inbound, let outbound):
            guard let transport = transports[id] else { return }
            transport.inbound = inbound.take()
            transport.outbound = outbound.take()
            transport.connected = true
            // Subscribers bound while DTLS was still running asked for keyframes the publisher
            // could not hear (nothing can be sent before the keys exist): ask again now.
            for source in transport.sources.values where source.isVideo && source.sinks.contains(where: { $0.waitingForKeyframe }) {
                startKeyframeRequests(for: source)
            }
            // Likewise its own subscribers: keyframes forwarded before it could send were not theirs.
            for sink in transport.sinks.values where sink.isVideo && sink.waitingForKeyframe {
                if let source = sink.source { startKeyframeRequests(for: source) }
            }
        case .setCongestionControl(let id, let spec):
            if let transport = transports[id] { setCongestionControl(spec, on: transport) }
        case .addSource(let spec):
            guard let transport = transports[spec.transportId] else { return }
            let source = SourceState(spec: spec, transport: transport, nowMs: nowMs, configuration: configuration)
            if let previous = sources[spec.id] { removeSource(previous) }
            if spec.ssrc == 0, !source.rid.isEmpty, source.ridExtensionId != 0 {
                transport.ridSources.append(source)
            } else {
                if let previous = transport.sources[spec.ssrc] { removeSource(previous) }
                transport.sources[spec.ssrc] = source
            }
            if source.rtxSSRC != 0 {
                if let previous = transport.rtxSources[source.rtxSSRC] { removeSource(previous) }
                transport.rtxSources[source.rtxSSRC] = source
            }
            sources[spec.id] = source
        case .removeSource(let id):
            if let source = sources[id] { removeSource(source) }
        case .addSink(let spec):
            guard let transport = transports[spec.transportId] else { return }
            let sink = SinkState(
                spec: spec, transport: transport, initialSequenceNumber: UInt16(truncatingIfNeeded: nextRandom()), initialTimestamp: nextRandom(),
                configuration: configuration)
            if let previous = transport.sinks[spec.outputSSRC] { removeSink(previous) }
            if let previous = sinks[spec.id] { removeSink(previous) }
            updateSegmentPadding(of: sink)
            ensureEstimator(on: transport)
            transport.sinks[spec.outputSSRC] = sink
            sinks[spec.id] = sink
        case .removeSink(let id):
            if let sink = sinks[id] { removeSink(sink) }
        case .bind(let sinkId, let sourceId):
            guard let sink = sinks[sinkId], let source = sources[sourceId] else { return }
            bind(sink, to: source)
        case .switchSource(let sinkId, let sourceId):
            guard let sink = sinks[sinkId], let source = sources[sourceId] else { return }
            switchSource(of: sink, to: source)
        case .unbind(let sinkId):
            if let sink = sinks[sinkId] { unbind(sink) }
        case .setSinkPayloadType(let sinkId, let payloadType):
            guard let sink = sinks[sinkId], sink.outputPayloadType != payloadType & 0x7F else { return }
            sink.outputPayloadType = payloadType & 0x7F
            // A repair under a packet's first SRTP index would now carry another payload type.
            if let record = sink.sentRecord { Self.forgetSentPackets(in: record) }
        case .setSinkRetransmission(let sinkId, let ssrc, let payloadType):
            guard let sink = sinks[sinkId], sink.rtxSSRC != ssrc else { return }
            sink.rtxSSRC = ssrc
            sink.rtxPayloadType = payloadType & 0x7F
            sink.rtxSequenceNumber = UInt16(truncatingIfNeeded: nextRandom())
        case .requestKeyframe(let sourceId):
            if let source = sources[sourceId] { requestKeyframe(from: source) }
        case .restartSinkAtKeyframe(let sinkId):
            guard let sink = sinks[sinkId], sink.isVideo, let source = sink.source else { return }
            sink.waitingForKeyframe = true
            startKeyframeRequests(for: source)
        case .addPipeOutlet(let sourceId, let peer):
            guard let source = sources[sourceId], let link = links[peer], !source.outlets.contains(where: { $0.link === link }) else { return }
            source.outlets.append(PipeOutlet(link: link))
        case .removePipeOutlet(let sourceId, let peer):
            guard let source = sources[sourceId], let link = links[peer] else { return }
            source.outlets.removeAll { $0.link === link }
        case .addRemoteSource(let spec, let peer):
            guard let link = links[peer] else { return }
            if let previous = sources[spec.id] { removeSource(previous) }
            let source = SourceState(spec: spec, transport: link.placeholder, nowMs: nowMs, configuration: configuration)
            source.upstream = link
            sources[spec.id] = source
        case .addLink(let handoff):
            addLink(handoff.link)
        case .removeLink(let peer):
            removeLink(to: peer)
        case .sendWebRTCDatagram(let datagram, let endpoint):
            datagram.withUnsafeBytes { bytes in
                if output.sendFromWebRTCSocket(bytes, to: endpoint) {
                    counters.packetsOut &+= 1
                    counters.bytesOut &+= UInt64(bytes.count)
                } else {
                    counters.drop(.sendBufferFull)
                }
            }
        case .stop:
            // The shell's to act on: it ends the loop.
            break
        }
    }

    /// Feeds a sink from a source, starting a new rewriter generation; video waits for a keyframe.
    func bind(_ sink: SinkState, to source: SourceState) {
        unbind(sink)
        sink.source = source
        sink.generation &+= 1
        source.sinks.append(sink)
        if sink.isVideo {
            sink.waitingForKeyframe = true
            sink.report.keyframeDeliveredAtMs = nil
            if replayRecentKeyframe(to: sink, from: source) { return }
            startKeyframeRequests(for: source)
        }
    }

    /// A layer switch: the sink keeps its current source until the new one's next keyframe, which
    /// is requested now, so the subscriber's picture never freezes and its decoder never sees a
    /// frame that references pictures it did not get.
    func switchSource(of sink: SinkState, to source: SourceState) {
        guard sink.isVideo, let current = sink.source, !sink.waitingForKeyframe else {
            bind(sink, to: source)
            return
        }
        cancelPendingSwitch(of: sink)
        if current === source { return }
        sink.pendingSource = source
        source.pendingSinks.append(sink)
        startKeyframeRequests(for: source)
    }

    /// Completes the switches waiting for this source: called with a keyframe of it in hand,
    /// before that keyframe is forwarded.
    func completePendingSwitches(to source: SourceState) {
        for sink in source.pendingSinks {
            sink.pendingSource = nil
            if let previous = sink.source { previous.sinks.removeAll { $0 === sink } }
            sink.source = source
            sink.generation &+= 1
            sink.waitingForKeyframe = false
            source.sinks.append(sink)
        }
        source.pendingSinks.removeAll(keepingCapacity: true)
    }

    func cancelPendingSwitch(of sink: SinkState) {
        guard let pending = sink.pendingSource else { return }
        pending.pendingSinks.removeAll { $0 === sink }
        sink.pendingSource = nil
    }

    func startKeyframeRequests(for source: SourceState) {
        source.repeater.start(nowMs: nowMs)
        if source.repeater.poll(nowMs: nowMs) { requestKeyframeForWaitingSinks(from: source) }
    }

    /// The repeater's request for sinks waiting for a keyframe. A local publisher that answered a
    /// request less than ``KeyframeRequestThrottle/publisherHoldMs`` ago would ignore it: it goes
    /// out when that hold ends instead (a PK's viewers are bound one after another as their
    /// answers land). A remote source's request goes to the core that owns the publisher, which
    /// decides the same way.
    func requestKeyframeForWaitingSinks(from source: SourceState) {
        if source.upstream == nil, source.throttle.deferForPublisherHold(nowMs: nowMs) {
            noteDeferredKeyframeRequest(of: source)
            return
        }
        source.throttle.requestSent(nowMs: nowMs)
        sendPictureLossIndication(to: source, forWaitingSinks: true)
    }

    func noteDeferredKeyframeRequest(of source: SourceState) {
        if !deferredKeyframeSources.contains(where: { $0 === source }) { deferredKeyframeSources.append(source) }
    }

    /// Sends the deferred requests that are due; drops those of sources gone or answered meanwhile.
    func sendDueDeferredKeyframeRequests() {
        guard !deferredKeyframeSources.isEmpty else { return }
        deferredKeyframeSources.removeAll { source in
            guard sources[source.id] === source, source.throttle.deferredRequestMs != nil else { return true }
            guard source.throttle.takeDueDeferredRequest(nowMs: nowMs) else { return false }
            sendPictureLossIndication(to: source)
            return true
        }
    }

    func unbind(_ sink: SinkState) {
        cancelPendingSwitch(of: sink)
        guard let source = sink.source else { return }
        source.sinks.removeAll { $0 === sink }
        sink.source = nil
        sink.waitingForKeyframe = false
    }

    func removeSource(_ source: SourceState) {
        for sink in source.pendingSinks { sink.pendingSource = nil }
        source.pendingSinks.removeAll()
        let orphans = source.sinks
        for sink in orphans {
            sink.source = nil
            sink.waitingForKeyframe = false
        }
        source.sinks.removeAll()
        // A sink that was about to switch away from this source moves now, waiting for a keyframe.
        for sink in orphans {
            if let pending = sink.pendingSource {
                cancelPendingSwitch(of: sink)
                bind(sink, to: pending)
            }
        }
        if source.transport.sources[source.ssrc] === source { source.transport.sources[source.ssrc] = nil }
        source.transport.ridSources.removeAll { $0 === source }
        if source.rtxSSRC != 0, source.transport.rtxSources[source.rtxSSRC] === source { source.transport.rtxSources[source.rtxSSRC] = nil }
        sources[source.id] = nil
    }

    func removeSink(_ sink: SinkState) {
        unbind(sink)
        if sink.transport.sinks[sink.rewriter.outputSSRC] === sink { sink.transport.sinks[sink.rewriter.outputSSRC] = nil }
        sinks[sink.id] = nil
    }

    /// Hands the audio levels seen since the last call to the control plane and starts new windows.
    /// Allocates only when some source carried a level.
    func publishLevels() {
        var snapshot: [UInt32: AudioLevelSample] = [:]
        for (id, source) in sources where source.levelSeen && source.upstream == nil {
            snapshot[id] = AudioLevelSample(level: source.loudestLevel, voiceActivity: source.voiceActivity)
            source.levelSeen = false
            source.loudestLevel = 127
            source.voiceActivity = false
        }
        if !snapshot.isEmpty { reports.fold(snapshot) }
    }

    /// Publishes a snapshot of counters and per-object stats for the control plane.
    func publishReport() {
        var report = MediaPlaneReport()
        report.generatedAtMs = nowUnixMs
        report.counters = counters
        // A copy of its own, so the data plane's next drop does not pay a copy-on-write allocation.
        report.counters.drops = counters.drops.map { $0 }
        let windowMs = nowMs - lastPublishedReportMs
        lastPublishedReportMs = nowMs
        func bitsPerSecond(_ bytes: UInt64, since previous: UInt64) -> Int {
            windowMs > 0 && bytes >= previous ? Int(min((bytes - previous) * 8000 / UInt64(windowMs), UInt64(Int.max))) : 0
        }
        // Remote sources mirror another shard's source, which reports it.
        for (id, source) in sources where source.upstream == nil {
            var entry = source.report
            entry.idleMs = nowMs - source.lastMediaMs
            entry.ssrc = source.ssrc
            entry.packetsLost = source.statistics.cumulativeLost
            entry.jitterMs = source.clockRate > 0 ? Double(source.statistics.jitter) * 1000 / Double(source.clockRate) : 0
            let window = bitsPerSecond(entry.bytes, since: source.bytesAtLastReport)
            entry.bitrateBps = max(window, source.previousWindowBps)
            source.bytesAtLastReport = entry.bytes
            source.previousWindowBps = window
            report.sources[id] = entry
        }
        for (id, sink) in sinks {
            var entry = sink.report
            entry.fractionLost = sink.remoteStatistics.fractionLost
            entry.cumulativeLost = sink.remoteStatistics.cumulativeLost
            entry.jitter = sink.remoteStatistics.jitter
            entry.roundTripTimeMs = sink.remoteStatistics.roundTripTimeMs
            entry.bound = sink.source != nil
            report.sinks[id] = entry
        }
        for (id, transport) in transports {
            var entry = transport.report
            entry.remote = transport.remoteKey == 0 ? nil : output.describe(transport.remote)
            entry.remoteProtocol = transport.remoteKey == 0 ? nil : (transport.remote.isStream ? "tcp" : "udp")
            // Only an IPv6 client is described in brackets.
            entry.remoteFamily = entry.remote.map { $0.hasPrefix("[") ? "ipv6" : "ipv4" }
            entry.sendBitrateBps = bitsPerSecond(entry.bytesOut, since: transport.bytesOutAtLastReport)
            transport.bytesOutAtLastReport = entry.bytesOut
            entry.bandwidthEstimate = transport.estimator.map { Self.estimateReport(of: $0, stamps: transport.sentSequenceExtensionId != 0) }
            transport.announcedEstimateBps = entry.bandwidthEstimate?.estimateBps ?? 0
            report.transports[id] = entry
        }
        reports.publish(report)
    }
}
