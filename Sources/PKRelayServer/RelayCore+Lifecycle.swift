import Logging
import MediaPlane
import Protocol
import RoomEngine

extension RelayCore {
    /// Feeds the media plane's activity into the engine and advances its timers (keep-alive,
    /// token expiry). Called a few times a second.
    public func tick() {
        let report = media.latestReport()
        if report.generatedAtMs != mediaQuality.lastReportAtMs {
            mediaQuality.lastReportAtMs = report.generatedAtMs
            for (id, source) in report.sources where source.packets > 0 {
                engine.recordMediaActivity(sourceId: id, at: EngineTime(milliseconds: report.generatedAtMs - source.idleMs))
            }
            reportFirstKeyframes(MediaPlaneReportView(report: report))
            allocateLayers(budgetsFrom: report)
        }
        apply(engine.tick(now: now))
        runMediaQuality(report)
        reportLayerUse()
        runWebRTCTimers()
    }

    /// Starts draining: joins are refused, every user is told (onExitRoom, server shutdown) and
    /// leaves its rooms, and every connection's outbound stream ends.
    public func drain() {
        accepting = false
        // Forwards and links end first, so their owners and the room server hear why.
        for roomId in engine.roomIds {
            for member in engine.snapshot(roomId: roomId) ?? [] where engine.forwardedFrom(roomId: roomId, userId: member.userId) == nil {
                apply(
                    engine.stopForwardsAndLinks(roomId: roomId, userId: member.userId, linkReason: "serverShutdown", departure: .serverShutdown, now: now)
                        .actions)
            }
        }
        // Mirrors of users from other nodes end too: those nodes hear that the rooms are gone, and
        // so do the edges serving the audience of rooms held here.
        apply(engine.endEdges(reason: .serverShutdown, code: .shuttingDown, message: "the relay is shutting down"))
        apply(engine.endRemoteMirrors())
        for session in sessions.ids {
            for roomId in engine.rooms(of: session) {
                send(
                    .exitRoom(
                        ExitRoomEvent(roomId: roomId, reason: .serverShutdown, code: ErrorCode.shuttingDown.rawValue, message: "the relay is shutting down")),
                    to: session)
            }
        }
        // Every client has now heard that it left each of its rooms: end its stream of messages
        // here (what is queued is still delivered), so that taking the users out one by one below
        // does not tell a client still connected about rooms it has already left.
        for state in sessions.all { state.outbound.finish() }
        for session in sessions.ids { disconnect(session) }
        // What is queued for other nodes is still written; then their connections close.
        if let peers { Task { await peers.closeAll() } }
        logger.info("drained all connections")
    }
}
