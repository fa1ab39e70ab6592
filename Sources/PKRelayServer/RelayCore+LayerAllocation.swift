import MediaPlane
import Protocol
import RoomEngine

/// Automatic layer choice and fallback: on each media-plane report, every subscriber transport's
/// budget is shared among its video subscriptions (``LayerAllocator``), and the limits that change
/// are applied through the engine, which switches layers at keyframes and tells the subscriber.
extension RelayCore {
    /// `setSubscribeFallbackOption`: what the relay may do to this connection's subscriptions on a
    /// weak downlink. Takes effect at once (a limit the new option forbids is lifted now).
    func setSubscribeFallbackOption(_ params: SetSubscribeFallbackOptionParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        sessions[session]?.subscribeFallbackOption = params.option
        allocateLayers(budgetsFrom: nil)
        return EngineOutcome(result: .success(EmptyResult()), actions: [])
    }

    /// `setRemoteUserPriority`: how this subscriber ranks one publisher's video in a room it is in.
    func setRemoteUserPriority(_ params: SetRemoteUserPriorityParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        guard engine.userId(of: session, roomId: params.roomId) != nil else {
            return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(params.roomId)'")), actions: [])
        }
        sessions[session]?.remotePriorities[RemotePriorityKey(roomId: params.roomId, userId: params.userId)] = params.priority
        return EngineOutcome(result: .success(EmptyResult()), actions: [])
    }

    /// `setRemoteVideoConfig`: the size this subscriber shows one publisher's video at. The
    /// allocator then sends no layer larger than the smallest one that fills it; 0 by 0 lifts that.
    func setRemoteVideoConfig(_ params: SetRemoteVideoConfigParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        let largest = SetRemoteVideoConfigParams.largestSide
        for (name, value) in [("width", params.width), ("height", params.height)] where !(0...largest).contains(value) {
            return EngineOutcome(result: .failure(RelayError(.invalidParams, "params.\(name) must be 0 to \(largest) pixels")), actions: [])
        }
        if let framerate = params.framerate, !(0...240).contains(framerate) {
            return EngineOutcome(result: .failure(RelayError(.invalidParams, "params.framerate must be 0 to 240")), actions: [])
        }
        guard engine.userId(of: session, roomId: params.roomId) != nil else {
            return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(params.roomId)'")), actions: [])
        }
        let key = RemoteVideoKey(roomId: params.roomId, userId: params.userId, streamIndex: params.streamIndex ?? .main)
        sessions[session]?.renderSizes[key] = params.width == 0 && params.height == 0 ? nil : (params.width, params.height)
        allocateLayers(budgetsFrom: nil)
        return EngineOutcome(result: .success(EmptyResult()), actions: [])
    }

    /// Tells dual-stream publishers when the use of their encodings changed (on the relay's tick).
    func reportLayerUse() {
        var current: [LayerUseKey: SubscribedLayersChangedEvent] = [:]
        for (session, event) in engine.layerDemand(wanted: layerAllocation.allocator.wantedStoppedSources) {
            let key = LayerUseKey(session: session, roomId: event.roomId, streamIndex: event.streamIndex)
            current[key] = event
            let previous = layerAllocation.layerUse[key]
            let unchanged = previous.map { $0 == event } ?? (event.bigSubscribed && event.smallSubscribed && event.mediumSubscribed != false)
            if !unchanged { send(.subscribedLayersChanged(event), to: session) }
        }
        layerAllocation.layerUse = current
    }

    /// A subscriber's estimate fell sharply between reports: its transport's budget follows now,
    /// once the estimate has settled, and the allocator runs at once for that transport alone.
    func estimateDropped(transportId: Int, bps: Int) {
        guard configuration.layerAllocation, layerAllocation.budgets[transportId]?.hasSettled(nowMs: nowMs()) == true else { return }
        layerAllocation.lastBudgets[transportId] = bps
        allocateLayers(onTransport: transportId)
    }

    /// A subscriber judged by its receiver reports reported heavy loss: its budget is cut now,
    /// from what the transport sent over the last report's window, and the allocator runs.
    func reportedLoss(transportId: Int, lossFraction: Double) {
        guard configuration.layerAllocation, let delivered = layerAllocation.delivered[transportId] else { return }
        var budget = layerAllocation.budgets[transportId] ?? DownlinkBudget()
        let bps = budget.cut(lossFraction: lossFraction, deliveredBps: delivered, nowMs: nowMs())
        layerAllocation.budgets[transportId] = budget
        guard let bps, layerAllocation.lastBudgets[transportId] != bps else { return }
        layerAllocation.lastBudgets[transportId] = bps
        allocateLayers(onTransport: transportId)
    }

    /// Reruns the allocator for one transport whose budget moved between reports. A whole round
    /// per such event cost the node's whole audience each time: with 380 viewers giving feedback
    /// on one core, those rounds took a third of the relay's CPU and pushed p99 past 150 ms.
    func allocateLayers(onTransport transportId: Int) {
        let candidates = withRenderCeilings(engine.videoAllocationCandidates(onTransport: transportId))
        guard !candidates.isEmpty else { return }
        let sessions = self.sessions
        let decisions = layerAllocation.allocator.allocate(
            transport: transportId, candidates: candidates, budget: layerAllocation.lastBudgets[transportId], rates: layerAllocation.rates,
            stalled: layerAllocation.stalled, flowing: layerAllocation.flowing, option: { sessions[$0]?.subscribeFallbackOption ?? .default },
            priority: { sessions[$0.session]?.remotePriorities[RemotePriorityKey(roomId: $0.ref.roomId, userId: $0.ref.publisherUserId)] ?? .low },
            nowMs: nowMs())
        apply(decisions)
        // The tally of limits changes only by what moved.
        for decision in decisions {
            if let before = candidates.first(where: { $0.ref == decision.ref })?.limit {
                layerAllocation.limited[before, default: 0] -= 1
                if layerAllocation.limited[before] == 0 { layerAllocation.limited[before] = nil }
            }
            layerAllocation.limited[decision.limit, default: 0] += 1
        }
    }

    /// The candidates with the ceiling each subscriber's rendered size puts on its ladder.
    func withRenderCeilings(_ candidates: [VideoAllocationCandidate]) -> [VideoAllocationCandidate] {
        let sessions = self.sessions
        let sizes = layerAllocation.sizes
        return candidates.map { candidate in
            var candidate = candidate
            let key = RemoteVideoKey(roomId: candidate.ref.roomId, userId: candidate.ref.publisherUserId, streamIndex: candidate.ref.streamIndex)
            if let rendered = sessions[candidate.session]?.renderSizes[key] {
                candidate.renderCeiling = Self.renderCeiling(rendered, candidate: candidate, sizes: sizes)
            }
            return candidate
        }
    }

    /// Carries out the allocator's decisions through the engine, counted by reason.
    func apply(_ decisions: [VideoLimitDecision]) {
        for decision in decisions {
            switch decision.reason {
            case .subscribeFallbackByBandwidth: layerAllocation.fallbacks &+= 1
            case .subscribeRecoverByBandwidth: layerAllocation.recoveries &+= 1
            case .publisherChange: layerAllocation.publisherChanges &+= 1
            default: layerAllocation.requestedChanges &+= 1
            }
            apply(engine.limitVideo(decision.ref, to: decision.limit, reason: decision.reason, estimateBps: decision.budgetBps))
        }
    }

    /// The smallest encoding at least as wide or at least as tall as `rendered` (a picture fitted
    /// inside the rendered box, as a video element shows it, needs no more), among those whose
    /// size a keyframe has stated; nil when none of them is that large.
    static func renderCeiling(
        _ rendered: (width: Int, height: Int), candidate: VideoAllocationCandidate, sizes: [UInt32: (width: Int, height: Int)]
    ) -> VideoStreamType? {
        let layers: [(VideoStreamType, UInt32?)] = [(.small, candidate.smallSourceId), (.medium, candidate.mediumSourceId), (.big, candidate.bigSourceId)]
        for (type, source) in layers {
            guard let source, let size = sizes[source] else { continue }
            // A side given as 0 says nothing.
            if (rendered.width > 0 && size.width >= rendered.width) || (rendered.height > 0 && size.height >= rendered.height) { return type }
        }
        return nil
    }

    /// Runs the allocator on a new report; `report` nil reruns it on the budgets of the last one
    /// (a subscriber changed its settings).
    func allocateLayers(budgetsFrom report: MediaPlaneReport?) {
        guard configuration.layerAllocation else { return }
        var budgets: [Int: Int] = [:]
        if let report {
            guard layerAllocation.take(report) else { return }
            for (id, transport) in report.transports {
                var budget = layerAllocation.budgets[id] ?? DownlinkBudget()
                let bps = budget.update(estimate: transport.bandwidthEstimate, deliveredBps: transport.sendBitrateBps, nowMs: report.generatedAtMs)
                layerAllocation.budgets[id] = budget
                if let bps { budgets[id] = bps }
            }
            layerAllocation.lastBudgets = budgets
        } else {
            budgets = layerAllocation.lastBudgets
        }
        let sessions = self.sessions
        let candidates = withRenderCeilings(engine.videoAllocationCandidates())
        let decisions = layerAllocation.allocator.allocate(
            candidates: candidates, budgets: budgets, rates: layerAllocation.rates, stalled: layerAllocation.stalled, flowing: layerAllocation.flowing,
            option: { sessions[$0]?.subscribeFallbackOption ?? .default },
            priority: { sessions[$0.session]?.remotePriorities[RemotePriorityKey(roomId: $0.ref.roomId, userId: $0.ref.publisherUserId)] ?? .low },
            nowMs: nowMs())
        apply(decisions)
        var limits = Dictionary(uniqueKeysWithValues: candidates.map { ($0.ref, $0.limit) })
        for decision in decisions { limits[decision.ref] = decision.limit }
        layerAllocation.limited = Dictionary(grouping: limits.values, by: { $0 }).mapValues(\.count)
    }
}
