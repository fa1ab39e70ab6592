import MediaPlane

extension RelayConfiguration {
    /// The UDP ports WebRTC transports use, one per media thread: `media.webrtcPort` plus the
    /// thread's (shard's) index. Nil when WebRTC is off or `media.webrtcPort` is 0 (the system
    /// then chooses each thread's port at start).
    public var webRTCPortRange: ClosedRange<Int>? {
        guard let first = media.webRTCPort, first != 0 else { return nil }
        return first...(first + min(max(1, media.threads), MediaPlaneConfiguration.maximumThreads) - 1)
    }

    /// The WebRTC port range as a comment for the effective settings, where it is more than one port.
    var webRTCPortsComment: String {
        guard let range = webRTCPortRange, range.count > 1 else { return "" }
        return "  # WebRTC ports \(range.lowerBound)-\(range.upperBound), one per media thread"
    }
}
