import MediaPlane
import Protocol
import RoomEngine

/// Volume reports, active-speaker changes and network quality: decided by ``MediaQualityState``
/// on the relay's tick, delivered here.
extension RelayCore {
    /// `enableAudioPropertiesReport`: turns a session's volume reports for one room on (or off with interval 0).
    func enableAudioPropertiesReport(_ params: EnableAudioPropertiesReportParams, session: SessionID) -> EngineOutcome<EmptyResult> {
        guard engine.userId(of: session, roomId: params.roomId) != nil else {
            return EngineOutcome(result: .failure(RelayError(.notInRoom, "not joined to room '\(params.roomId)'")), actions: [])
        }
        return EngineOutcome(result: mediaQuality.enableAudioReports(session: session, params: params, nowMs: nowMs()), actions: [])
    }

    /// Runs on every tick: volume reports when due, network quality every 2 s.
    func runMediaQuality(_ report: MediaPlaneReport) {
        for notice in mediaQuality.tick(report: report, levels: media.takeAudioLevels(), engine: engine, nowMs: nowMs()) {
            guard let text = text(of: notice.event) else { continue }
            for session in notice.sessions { send(text, to: session) }
        }
    }
}
