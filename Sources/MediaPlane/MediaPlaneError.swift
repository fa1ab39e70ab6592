/// Why the media plane refused a control-plane request.
public enum MediaPlaneError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidBindAddress(String)
    case noFreePort(ClosedRange<Int>)
    case socketFailed(errno: Int32)
    case invalidKey(String)
    case unknownTransport(Int)
    case alreadyConnected(Int)
    case notRunning
    case webRTCPortInUse(Int)
    /// Another process listens on the TCP port of the same number (ICE-TCP).
    case webRTCTCPPortInUse(Int)
    /// Another process holds the WebRTC port's number on the IPv6 address (UDP or TCP).
    case webRTCIPv6PortInUse(Int)
    /// `media.bindAddress6` is not IPv6 text.
    case invalidIPv6BindAddress(String)
    /// The system cannot bind `media.bindAddress6`: no interface has it, or IPv6 is off.
    case unavailableIPv6Address(String)
    case webRTCDisabled
    /// The WebRTC ports, one per shard from the first, would run past 65535.
    case webRTCPortsOutOfRange(first: Int, count: Int)
    case segmentationOffloadUnsupported
    case receiveOffloadUnsupported

    public var description: String {
        switch self {
        case .invalidBindAddress(let address): "'\(address)' is not an IPv4 address"
        case .noFreePort(let range): "no free UDP port in \(range.lowerBound)-\(range.upperBound)"
        case .socketFailed(let errno): "socket error \(errno)"
        case .invalidKey(let reason): reason
        case .unknownTransport(let id): "no transport \(id)"
        case .alreadyConnected(let id): "transport \(id) is already connected"
        case .notRunning: "the media plane is not running"
        case .webRTCPortInUse(let port): "the WebRTC port \(port) is in use by another process"
        case .webRTCTCPPortInUse(let port):
            "the WebRTC port \(port) is in use on TCP by another process (ICE-TCP listens on each WebRTC port's number; media.webrtcTCP: false turns it off)"
        case .webRTCIPv6PortInUse(let port): "the WebRTC port \(port) is in use on the IPv6 address by another process (media.bindAddress6)"
        case .invalidIPv6BindAddress(let address): "'\(address)' is not an IPv6 address (media.bindAddress6)"
        case .unavailableIPv6Address(let address):
            "cannot bind the IPv6 address '\(address)' (media.bindAddress6): no interface has it, or IPv6 is turned off on this host"
        case .webRTCDisabled: "WebRTC is off on this relay (media.webrtcPort is not set)"
        case .webRTCPortsOutOfRange(let first, let count): "the WebRTC ports \(first)-\(first + count - 1) (one per media thread) do not fit below 65536"
        case .segmentationOffloadUnsupported: "media.gso is on, but this kernel does not support UDP_SEGMENT (Linux 4.18 or later): set it to auto or off"
        case .receiveOffloadUnsupported: "media.gro is on, but this kernel does not support UDP_GRO (Linux 5.0 or later): set it to auto or off"
        }
    }
}
