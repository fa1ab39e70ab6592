/// What the delay-based detector concludes about the path's queue (draft-ietf-rmcat-gcc-02,
/// section 5.4): queues growing (`overusing`), draining (`underusing`) or steady (`normal`).
public enum BandwidthUsage: UInt8, Sendable, Hashable {
    case normal = 0
    case underusing = 1
    case overusing = 2
}
