import CSocketShims
import RTPWire

/// ICE over TCP on one shard's WebRTC port (RFC 6544, passive candidates only): the listening
/// sockets (IPv4, and IPv6 where configured) and the connections accepted on them, each carrying
/// datagrams with RFC 4571 framing.
///
/// A connection is named by a ``PeerEndpoint`` whose `connection` is its slot plus one, so the
/// core finds transports and answers checks over TCP exactly as over UDP; what it sends to such
/// an endpoint is framed into the connection's send buffer instead of a `sendmmsg` batch. Lives
/// on the shard's thread: the shell accepts, reads and sweeps, the output sends.
final class StreamConnections {
    struct Connection {
        var stream: OpaquePointer
        /// The client's TCP address, with this connection's number (for an IPv6 client the
        /// address part is 0: see `address6`).
        var endpoint: PeerEndpoint
        /// An IPv6 client's address; nil for IPv4.
        var address6: IPv6Address?
        /// What ``StreamConnections/limitPerAddress`` counts this connection under.
        var addressKey: AddressKey
        var lastFrameMs: Int64
        /// The last time a transport took datagrams from this connection (a check passed here).
        var lastRoutedMs: Int64
        /// Whether epoll also reports the socket writable (while queued bytes wait).
        var watchingWritable: Bool
        /// A write found the connection broken: nothing more is sent on it, and it is closed
        /// once nothing can be reading from its buffer (``closeFailed()``).
        var failed = false
    }

    /// What the per-address limit counts: an IPv4 address, or an IPv6 client's /64 (one
    /// subscriber's network, which hands its hosts any number of addresses).
    enum AddressKey: Hashable {
        case ipv4(UInt32)
        case ipv6Prefix(UInt64)
    }

    /// Marks an epoll token as a connection's, with its slot in the low bits.
    static let tokenFlag: UInt64 = 1 << 61
    static let listenerToken = UInt64.max - 2
    static let listener6Token = UInt64.max - 4
    /// A connection's buffer for what arrived and is not yet a whole frame: the longest datagram
    /// the relay takes, its two length bytes, and room to read ahead.
    static let receiveCapacity = 4096
    /// What a connection keeps of what the kernel's socket buffer did not take: a slow reader's
    /// datagrams beyond it are dropped, as a full UDP socket's would be.
    static let sendCapacity = 65_536
    /// Reads of a connection per turn of the shard's loop, at most.
    static let readsPerTurn = 8
    /// A connection on which no check passed for this long (a stranger, a port scanner, or the
    /// client of a transport that closed) is closed.
    static let unroutedLimitMs: Int64 = 10_000
    /// A connection that carried nothing for this long is closed: a client keeps checking
    /// consent every few seconds.
    static let idleLimitMs: Int64 = 30_000

    let listenFD: Int32
    /// The IPv6 listener on the same number, or -1.
    let listenFD6: Int32
    let epollFD: Int32
    let limit: Int
    /// Connections one IP address may hold open at a time.
    let limitPerAddress: Int
    /// Open connections by the client's IP address.
    private var openPerAddress: [AddressKey: Int] = [:]
    private(set) var slots: [Connection?]
    private var freeSlots: [Int]
    private(set) var openCount = 0
    /// Connections closed since the shell last told the core, which forgets their routes.
    var closedEndpoints: [PeerEndpoint] = []
    /// Whether a connection failed and waits to be closed.
    private(set) var hasFailed = false
    /// Until when the listener is out of the epoll set: accepting failed for want of
    /// descriptors or memory, and a readable listener would otherwise wake the shard at once,
    /// every turn. 0 while it listens.
    private(set) var listenerPausedUntilMs: Int64 = 0
    static let listenerPauseMs: Int64 = 1000

    /// The most connections one shard can hold: a connection's number is 15 bits of a
    /// ``PeerEndpoint`` (the 16th marks IPv6 peers).
    static let maximumLimit = Int(PeerEndpoint.ipv6Flag) - 1

    /// Takes `listenFD` and `listenFD6` (listening TCP sockets, IPv4 and IPv6 or -1, closed by
    /// ``closeAll()``) and accepts at most `limit` connections at a time (at most
    /// ``maximumLimit``), at most `limitPerAddress` of them from one IPv4 address or IPv6 /64.
    init(listenFD: Int32, listenFD6: Int32 = -1, epollFD: Int32, limit: Int, limitPerAddress: Int = Int(UInt16.max)) {
        self.listenFD = listenFD
        self.listenFD6 = listenFD6
        self.epollFD = epollFD
        self.limit = min(max(1, limit), Self.maximumLimit)
        self.limitPerAddress = max(1, limitPerAddress)
        slots = []
        freeSlots = []
        closedEndpoints.reserveCapacity(64)
    }

    static func token(ofSlot slot: Int) -> UInt64 { tokenFlag | UInt64(slot) }

    static func slot(of endpoint: PeerEndpoint) -> Int { Int(endpoint.connection) - 1 }

    /// Puts the listeners into the epoll set.
    func startListening() {
        _ = pkr_epoll_add(epollFD, listenFD, Self.listenerToken)
        if listenFD6 >= 0 { _ = pkr_epoll_add(epollFD, listenFD6, Self.listener6Token) }
    }

    /// Accepts what waits on the IPv4 or the IPv6 listening socket: up to `limit` connections
    /// open, and `limitPerAddress` from one address, the rest closed at once. Returns the counts
    /// accepted and refused.
    func acceptWaiting(ipv6: Bool = false, nowMs: Int64) -> (accepted: Int, refused: Int) {
        var accepted = 0
        var refused = 0
        // Bounded per turn, so a connection flood cannot hold the shard here.
        for _ in 0..<64 {
            var ip: UInt32 = 0
            var high: UInt64 = 0
            var low: UInt64 = 0
            var port: UInt16 = 0
            let fd = ipv6 ? pkr_tcp_accept6(listenFD6, &high, &low, &port) : pkr_tcp_accept(listenFD, &ip, &port)
            // EMFILE, ENFILE, ENOBUFS, ENOMEM: the connection stays in the backlog.
            if fd == -24 || fd == -23 || fd == -105 || fd == -12 {
                pauseListening(nowMs: nowMs)
                break
            }
            if fd < 0 { break }
            let addressKey: AddressKey = ipv6 ? .ipv6Prefix(high) : .ipv4(ip)
            guard openCount < limit, openPerAddress[addressKey, default: 0] < limitPerAddress,
                let stream = pkr_stream_create(fd, UInt32(Self.receiveCapacity), UInt32(Self.sendCapacity))
            else {
                _ = pkr_close(fd)
                refused += 1
                continue
            }
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
            } else {
                slot = slots.count
                slots.append(nil)
            }
            guard pkr_epoll_add(epollFD, fd, Self.token(ofSlot: slot)) == 0 else {
                pkr_stream_destroy(stream)
                freeSlots.append(slot)
                refused += 1
                continue
            }
            // An IPv6 client's endpoint carries no address (only the connection's number routes),
            // so no IPv4 destination ever takes part of one.
            let endpoint = PeerEndpoint(ip: ipv6 ? 0 : ip, port: port, connection: UInt16(slot + 1))
            slots[slot] = Connection(
                stream: stream, endpoint: endpoint, address6: ipv6 ? IPv6Address(high: high, low: low) : nil, addressKey: addressKey,
                lastFrameMs: nowMs, lastRoutedMs: nowMs, watchingWritable: false)
            openCount += 1
            openPerAddress[addressKey, default: 0] += 1
            accepted += 1
        }
        return (accepted, refused)
    }

    /// Takes both listeners out of the epoll set for ``listenerPauseMs``.
    private func pauseListening(nowMs: Int64) {
        guard listenerPausedUntilMs == 0 else { return }
        _ = pkr_epoll_remove(epollFD, listenFD)
        if listenFD6 >= 0 { _ = pkr_epoll_remove(epollFD, listenFD6) }
        listenerPausedUntilMs = nowMs + Self.listenerPauseMs
    }

    /// The STUN address of the client an endpoint names (what a check's answer maps), or nil
    /// when its connection is gone.
    func stunAddress(of endpoint: PeerEndpoint) -> STUNAddress? {
        guard let connection = connection(for: endpoint) else { return nil }
        if let address = connection.address6 { return STUNAddress(ipv6High: address.high, low: address.low, port: endpoint.port) }
        return STUNAddress(ipv4: endpoint.ip, port: endpoint.port)
    }

    /// The connection an endpoint names, when it is still the one that endpoint came over and
    /// has not failed.
    func connection(for endpoint: PeerEndpoint) -> Connection? {
        let slot = Self.slot(of: endpoint)
        guard slots.indices.contains(slot), let connection = slots[slot], connection.endpoint == endpoint, !connection.failed else { return nil }
        return connection
    }

    /// Puts the listener back into the epoll set once its pause is over.
    func resumeListening(nowMs: Int64) {
        guard listenerPausedUntilMs != 0, nowMs >= listenerPausedUntilMs else { return }
        listenerPausedUntilMs = 0
        startListening()
    }

    /// Queues one datagram, framed, on the connection `endpoint` names and writes what the
    /// kernel takes; false when the connection is gone or its buffer is full.
    func send(_ datagram: UnsafeRawBufferPointer, to endpoint: PeerEndpoint) -> Bool {
        guard let connection = connection(for: endpoint), let base = datagram.baseAddress else { return false }
        let queued = pkr_stream_queue(connection.stream, base, UInt32(datagram.count)) == 1
        flush(slot: Self.slot(of: endpoint))
        return queued
    }

    /// Queues prepared messages 0..<count of a transport's send batch on the connection
    /// `endpoint` names and writes what the kernel takes; returns how many were queued.
    func sendBatch(_ batch: OpaquePointer, count: Int, to endpoint: PeerEndpoint) -> Int {
        guard let connection = connection(for: endpoint) else { return 0 }
        let queued = Int(pkr_stream_queue_batch(connection.stream, batch, UInt32(count)))
        flush(slot: Self.slot(of: endpoint))
        return queued
    }

    /// Writes what waits on a connection; watches for room while some is left. A socket that
    /// failed marks the connection failed rather than closing it here: a send happens while the
    /// core may still be reading a frame from the connection's buffer (a NACK answered packet
    /// by packet), which must stay valid until the read is over.
    func flush(slot: Int) {
        guard slots.indices.contains(slot), let connection = slots[slot], !connection.failed else { return }
        let pending = pkr_stream_flush(connection.stream)
        if pending < 0 {
            slots[slot]!.failed = true
            hasFailed = true
            return
        }
        let wantsWritable = pending > 0
        if wantsWritable != connection.watchingWritable,
            pkr_epoll_watch(epollFD, pkr_stream_fd(connection.stream), Self.token(ofSlot: slot), wantsWritable ? 1 : 0) == 0
        {
            slots[slot]!.watchingWritable = wantsWritable
        }
    }

    /// Closes the connections a write found broken; called where no frame of theirs is being read.
    func closeFailed() {
        guard hasFailed else { return }
        hasFailed = false
        for slot in slots.indices where slots[slot]?.failed == true { close(slot: slot) }
    }

    /// Reads what arrived on a connection and hands each whole frame to `handle`, in order, with
    /// the connection's endpoint. Returns whether the connection is still open (the peer closed
    /// it, or it failed, otherwise: the caller closes it) and how many frames were too long to
    /// take (passed over).
    func read(slot: Int, nowMs: Int64, handle: (UnsafeMutableRawPointer, Int, PeerEndpoint) -> Void) -> (open: Bool, oversized: Int) {
        guard slots.indices.contains(slot), let connection = slots[slot] else { return (true, 0) }
        if connection.failed { return (false, 0) }
        var frame: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        var skipped: UInt32 = 0
        var framed = false
        defer { if framed, slots[slot] != nil { slots[slot]!.lastFrameMs = nowMs } }
        // A few buffers' worth per turn (a keyframe's burst), then the other sockets get theirs.
        for _ in 0..<Self.readsPerTurn {
            let got = pkr_stream_read(connection.stream)
            if got == -11 { break }  // EAGAIN: all read, or woken to write
            if got <= 0 { return (false, Int(skipped)) }
            // An answer sent from `handle` can find the connection failed: then no more frames
            // are read from it (it is closed after the read).
            while slots[slot]?.failed == false,
                pkr_stream_next_frame(connection.stream, UInt32(MediaCore.maximumPacketSize), &frame, &length, &skipped) == 1
            {
                framed = true
                if let frame { handle(UnsafeMutableRawPointer(frame), Int(length), connection.endpoint) }
            }
            if slots[slot]?.failed != false { break }
        }
        return (true, Int(skipped))
    }

    /// Closes connections nobody uses: none of whose checks passed (or whose transport went)
    /// for ``unroutedLimitMs``, or silent for ``idleLimitMs``. `isRouted` says whether a
    /// transport takes the endpoint's datagrams now.
    func sweep(nowMs: Int64, isRouted: (PeerEndpoint) -> Bool) {
        for slot in slots.indices {
            guard let connection = slots[slot] else { continue }
            if isRouted(connection.endpoint) {
                slots[slot]!.lastRoutedMs = nowMs
            } else if nowMs - connection.lastRoutedMs >= Self.unroutedLimitMs {
                close(slot: slot)
                continue
            }
            if nowMs - connection.lastFrameMs >= Self.idleLimitMs { close(slot: slot) }
        }
    }

    /// Closes one connection; its slot is free for the next.
    func close(slot: Int) {
        guard slots.indices.contains(slot), let connection = slots[slot] else { return }
        _ = pkr_epoll_remove(epollFD, pkr_stream_fd(connection.stream))
        pkr_stream_destroy(connection.stream)
        slots[slot] = nil
        freeSlots.append(slot)
        openCount -= 1
        let key = connection.addressKey
        if let open = openPerAddress[key], open > 1 { openPerAddress[key] = open - 1 } else { openPerAddress[key] = nil }
        closedEndpoints.append(connection.endpoint)
    }

    /// Closes every connection and the listening socket.
    func closeAll() {
        for slot in slots.indices { close(slot: slot) }
        if listenerPausedUntilMs == 0 {
            _ = pkr_epoll_remove(epollFD, listenFD)
            if listenFD6 >= 0 { _ = pkr_epoll_remove(epollFD, listenFD6) }
        }
        _ = pkr_close(listenFD)
        if listenFD6 >= 0 { _ = pkr_close(listenFD6) }
    }
}
