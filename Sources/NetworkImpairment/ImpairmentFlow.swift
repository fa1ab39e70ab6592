#if canImport(Glibc)
    import Glibc
#endif

/// One client of the impairment relay: its address, the socket that speaks for it to the
/// target (so the target sees each client at an address of its own, as behind a NAT), and its
/// two links.
final class ImpairmentFlow {
    let client: sockaddr_in
    let clientDescription: String
    /// Connected to the target.
    let upstreamFD: Int32
    var uplink: ImpairedLink<[UInt8]>
    var downlink: ImpairedLink<[UInt8]>

    init(client: sockaddr_in, upstreamFD: Int32, uplink: ImpairedLink<[UInt8]>, downlink: ImpairedLink<[UInt8]>) {
        self.client = client
        clientDescription = ImpairmentSocket.describe(client)
        self.upstreamFD = upstreamFD
        self.uplink = uplink
        self.downlink = downlink
    }

    deinit { close(upstreamFD) }

    /// The earlier of its links' next events.
    var nextEventUs: Int64? {
        switch (uplink.nextEventUs(), downlink.nextEventUs()) {
        case (let up?, let down?): min(up, down)
        case (let up?, nil): up
        case (nil, let down?): down
        case (nil, nil): nil
        }
    }
}
