import SecureTransport
import StreamCore

/// What fan-out needs per subscriber, built in the benchmark's setup so that neither its time nor
/// its allocations are measured.
final class FanOutState: @unchecked Sendable {
    // Used by one benchmark at a time, on one thread.
    let subscribers: Int
    let sessions: [SRTPSession]
    var rewriters: [TrackRewriter]
    let slots: UnsafeMutableRawPointer
    var sequence: UInt16 = 0

    init(subscribers: Int, profile: SRTPProfile) {
        self.subscribers = subscribers
        sessions = (0..<subscribers).map { _ in
            try! SRTPSession(profile: profile, keyingMaterial: SDESKeying.generateKeyingMaterial(for: profile), direction: .sender)
        }
        rewriters = (0..<subscribers).map { index in
            TrackRewriter(outputSSRC: UInt32(index + 1), initialSequenceNumber: UInt16(index), initialTimestamp: 0, clockRate: 90000)
        }
        slots = .allocate(byteCount: 2048 * subscribers, alignment: 16)
    }

    deinit { slots.deallocate() }
}
