import CSocketShims
import MediaPlane

extension RelayConfiguration {
    /// Descriptors the relay may need at its limits: every control connection, every media
    /// port (two with send-only sockets, three when an SRTP transport's are connected too),
    /// listeners, epoll, eventfd and the WebRTC port (two sockets with send-only sockets) per
    /// shard, with ICE-TCP its listener and connections, with IPv6 its IPv6 socket and listener,
    /// and some headroom for webhooks and logs.
    public var fileDescriptorsNeeded: Int {
        let iceTCP = media.webRTCTCP ? 1 + media.webRTCTCPConnections : 0
        let ipv6 = media.bindAddress6 == nil ? 0 : (media.webRTCTCP ? 2 : 1)
        let webRTCPerShard = media.webRTCPort == nil ? 0 : (media.sendOnlySockets ? 2 : 1) + iceTCP + ipv6
        let perMediaPort = media.sendOnlySockets ? (media.connectedSockets ? 3 : 2) : 1
        return maxConnections + media.portRange.count * perMediaPort + media.threads * (2 + webRTCPerShard) + 256
    }

    /// Raises the process's soft open-file limit to its hard limit and returns the limit in
    /// force (nil when it cannot be read).
    public static func raiseOpenFileLimit() -> Int? {
        let limit = pkr_raise_open_file_limit()
        return limit < 0 ? nil : Int(clamping: limit)
    }
}
