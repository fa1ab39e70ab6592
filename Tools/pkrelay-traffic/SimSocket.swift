import SecureTransport

/// The engine's state for one simulated client's socket. Used only on the engine thread.
final class SimSocket {
    let spec: SocketSpec
    let sender: SRTPSession
    let receiver: SRTPSession
    /// For AEAD_AES_128_GCM: the relay's packets are opened on OpenSSL with a kept cipher
    /// context, at a fraction of libsrtp-on-NSS's cost per packet (RTCP still goes to `receiver`).
    let gcmReceiver: SRTPGCMReceiver?
    /// For AEAD_AES_128_GCM: what the publisher sends is sealed the same way (RTCP goes to `sender`).
    let gcmSender: SRTPGCMSender?
    var publisher: PublisherState?

    /// Protects an RTP packet in place for sending; `rolloverCounter` counts the SSRC's wraps.
    func protectRTP(_ packet: UnsafeMutableRawPointer, length: inout Int, capacity: Int, rolloverCounter: UInt32) -> Bool {
        if let gcmSender { return gcmSender.seal(packet, length: &length, capacity: capacity, rolloverCounter: rolloverCounter) }
        return sender.protectRTP(packet, length: &length, capacity: capacity) == .ok
    }
    var streams: [UInt32: ReceiveStream] = [:]

    init(spec: SocketSpec) throws {
        self.spec = spec
        sender = try SRTPSession(profile: spec.profile, keyingMaterial: spec.sendingKey, direction: .sender)
        receiver = try SRTPSession(profile: spec.profile, keyingMaterial: spec.relayKey, direction: .receiver, replayWindowSize: 4096)
        gcmReceiver = spec.profile == .aeadAES128GCM ? try SRTPGCMReceiver(keyingMaterial: spec.relayKey) : nil
        gcmSender = spec.profile == .aeadAES128GCM ? try SRTPGCMSender(keyingMaterial: spec.sendingKey) : nil
    }
}
