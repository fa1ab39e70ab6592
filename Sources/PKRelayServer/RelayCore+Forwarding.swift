import Auth
import Foundation
import Protocol
import RoomEngine
import SecureTransport

extension RelayCore {
    /// Verifies each target's token for the target room and the caller's own userId; a target
    /// on another node takes that node's answer (`remote`).
    func verifyTargets(_ params: StartForwardParams, session: SessionID, remote: [String: ForwardTargetRequest]) -> [ForwardTargetRequest] {
        let userId = engine.userId(of: session, roomId: params.roomId) ?? ""
        let nowSeconds = nowMs() / 1000
        return params.targets.map { target in
            if let resolved = remote[target.roomId] { return resolved }
            return ForwardTargetRequest(
                roomId: target.roomId,
                grants: verifier.verify(target.token, roomId: target.roomId, userId: userId, nowSeconds: nowSeconds).map(Self.grants(of:)))
        }
    }

    /// Checks a message payload (text, or base64 binary) and hands it on with its byte size.
    func withPayload(text: String?, binary: String?, _ body: (MessagePayload) -> EngineOutcome<EmptyResult>) -> EngineOutcome<EmptyResult> {
        if let binary {
            guard let decoded = Data(base64Encoded: binary) else {
                return EngineOutcome(result: .failure(RelayError(.invalidParams, "params.binary must be base64")), actions: [])
            }
            return body(MessagePayload(text: text, base64: binary, byteCount: decoded.count))
        }
        return body(MessagePayload(text: text, base64: nil, byteCount: text?.utf8.count ?? 0))
    }

    /// Reports forwards and links whose first keyframe reached a target-room subscriber.
    func reportFirstKeyframes(_ report: MediaPlaneReportView) {
        for watch in engine.firstKeyframeWatches() {
            let delivered = watch.sinkIds.compactMap { report.keyframeDeliveredAt(sink: $0) }.filter { $0 >= watch.startedAt.milliseconds }.min()
            guard let delivered else { continue }
            apply(engine.firstKeyframeDelivered(watch, at: EngineTime(milliseconds: delivered)))
        }
    }
}
