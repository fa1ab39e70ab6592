import CSocketShims

#if canImport(Glibc)
    import Glibc
#endif

/// Where a transport's send batch keeps what changes from one queued datagram to the next: the
/// datagram's buffer, its two iovecs, its iovec count and its destination. Queueing writes them
/// here directly. Through a C call per datagram, the call, its address arithmetic and the header
/// fields that never change cost about 50 instructions per egress packet, an eighth of all the
/// relay's own instructions at a fan-out of 16.
///
/// Valid as long as its batch, which it leaves for sending only (`pkr_batch_send_layout`).
struct SendBatchLayout {
    private let buffers: UnsafeMutableRawPointer
    private let bufferSize: Int
    private let vectors: UnsafeMutablePointer<iovec>
    private let addresses: UnsafeMutablePointer<sockaddr_in>
    private let vectorCounts: UnsafeMutableRawPointer
    private let headerStride: Int

    init(of batch: OpaquePointer) {
        let layout = pkr_batch_send_layout(batch)
        buffers = UnsafeMutableRawPointer(layout.buffers)
        bufferSize = Int(layout.buffer_size)
        vectors = layout.vectors.assumingMemoryBound(to: iovec.self)
        addresses = layout.addresses.assumingMemoryBound(to: sockaddr_in.self)
        vectorCounts = UnsafeMutableRawPointer(layout.vector_counts)
        headerStride = Int(layout.header_stride)
    }

    /// The buffer of message `index`.
    @inline(__always)
    func buffer(at index: Int) -> UnsafeMutableRawPointer {
        buffers + index &* bufferSize
    }

    /// Prepares message `index` as the first `length` bytes of its buffer, for `destination`.
    @inline(__always)
    func prepare(at index: Int, length: Int, to destination: PeerEndpoint) {
        let buffer = buffer(at: index)
        let message = vectors + 2 &* index
        // The second iovec is empty but starts where the first ends, where a segmented run's
        // iovec array expects the message's second part.
        message[0] = iovec(iov_base: buffer, iov_len: length)
        message[1] = iovec(iov_base: buffer + length, iov_len: 0)
        finish(index, vectorCount: 1, destination: destination)
    }

    /// Prepares message `index` as the first `headLength` bytes of its buffer followed by
    /// `tailLength` bytes at `tail`, which must stay valid and unchanged until the batch is sent.
    @inline(__always)
    func prepareSplit(at index: Int, headLength: Int, tail: UnsafeRawPointer, tailLength: Int, to destination: PeerEndpoint) {
        let message = vectors + 2 &* index
        message[0] = iovec(iov_base: buffer(at: index), iov_len: headLength)
        message[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: tail), iov_len: tailLength)
        finish(index, vectorCount: 2, destination: destination)
    }

    /// The length message `index` was prepared with: both parts of a split one.
    @inline(__always)
    func preparedLength(at index: Int) -> Int {
        vectors[2 &* index].iov_len &+ vectors[2 &* index &+ 1].iov_len
    }

    /// The destination message `index` was prepared for.
    func destination(at index: Int) -> PeerEndpoint {
        PeerEndpoint(ip: UInt32(bigEndian: addresses[index].sin_addr.s_addr), port: UInt16(bigEndian: addresses[index].sin_port))
    }

    /// Sends messages 0..<count to `destination` instead of where they were prepared for.
    func redirect(count: Int, to destination: PeerEndpoint) {
        for index in 0..<count {
            addresses[index].sin_addr.s_addr = destination.ip.bigEndian
            addresses[index].sin_port = destination.port.bigEndian
        }
    }

    /// Moves the `count` messages from index `start` to the front of the batch, each gathered
    /// whole into its new buffer (a split message's second part included), so that none still
    /// points anywhere else: what a pacer holds back outlives the receive batch.
    func moveToFront(from start: Int, count: Int) {
        for offset in 0..<count {
            let from = start + offset
            let head = vectors[2 &* from].iov_len
            let tail = vectors[2 &* from &+ 1]
            let destination = destination(at: from)
            let buffer = buffer(at: offset)
            if from != offset { buffer.copyMemory(from: self.buffer(at: from), byteCount: head) }
            if tail.iov_len > 0, let tailBase = tail.iov_base { (buffer + head).copyMemory(from: tailBase, byteCount: tail.iov_len) }
            prepare(at: offset, length: head + tail.iov_len, to: destination)
        }
    }

    @inline(__always)
    private func finish(_ index: Int, vectorCount: Int, destination: PeerEndpoint) {
        (vectorCounts + index &* headerStride).storeBytes(of: vectorCount, as: Int.self)
        addresses[index].sin_addr.s_addr = destination.ip.bigEndian
        addresses[index].sin_port = destination.port.bigEndian
    }
}
