import SecureTransport
import StreamCore

/// The engine's state for one simulated client's socket. Used only on the engine thread.
final class SimSocket {
    let spec: SocketSpec
    let sender: SRTPSession
    let receiver: SRTPSession
    var publisher: PublisherState?
    var streams: [UInt32: ReceiveStream] = [:]
    /// With transport-wide numbers: the arrivals the relay's packets reported, and the feedback
    /// about them, as a browser's receiver keeps them.
    let feedbackRecorder: TransportFeedbackRecorder?
    /// The next transport-wide number a publisher stamps.
    var nextTransportWideSequence: UInt16 = 0
    /// Whether the first keyframe since its join is still to come (and to be timed).
    var awaitsFirstKeyframe: Bool

    init(spec: SocketSpec) throws {
        self.spec = spec
        awaitsFirstKeyframe = spec.joinedAtMicroseconds > 0
        feedbackRecorder = spec.transportWideExtensionId == 0 ? nil : TransportFeedbackRecorder()
        sender = try SRTPSession(profile: spec.profile, keyingMaterial: spec.sendingKey, direction: .sender)
        receiver = try SRTPSession(profile: spec.profile, keyingMaterial: spec.relayKey, direction: .receiver, replayWindowSize: 4096)
    }
}
