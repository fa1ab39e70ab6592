import SecureTransport

/// The engine's state for one simulated client's socket. Used only on the engine thread.
final class SimSocket {
    let spec: SocketSpec
    let sender: SRTPSession
    let receiver: SRTPSession
    var publisher: PublisherState?
    var streams: [UInt32: ReceiveStream] = [:]

    init(spec: SocketSpec) throws {
        self.spec = spec
        sender = try SRTPSession(profile: spec.profile, keyingMaterial: spec.sendingKey, direction: .sender)
        receiver = try SRTPSession(profile: spec.profile, keyingMaterial: spec.relayKey, direction: .receiver, replayWindowSize: 4096)
    }
}
