import CSocketShims

#if canImport(Glibc)
    import Glibc
#endif

/// The ICE-TCP framing (RFC 4571) against a model of it, on a real socket pair: what a client
/// writes, cut into arbitrary pieces, must come out of the relay's reader as exactly the frames
/// the model finds (those too long to take passed over), and what the relay queues must reach the
/// client as whole frames, in order, with only whole frames dropped when its buffer is full.
@_spi(Fuzzing) public enum StreamFramingFuzz {
    /// Input: the longest frame taken (two bytes, 1-1500), the receive buffer's room beyond it
    /// (one byte, times 8), the send buffer's size (one byte, times 16, at least 64); then pieces,
    /// each a length byte and that many bytes written at once (the last one takes what is left).
    public static func run(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4 else { return }
        let maximum = 1 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 1500
        let receiveCapacity = maximum + 2 + Int(bytes[2]) * 8
        let sendCapacity = max(64, Int(bytes[3]) * 16)
        var pieces: [[UInt8]] = []
        var offset = 4
        while offset < bytes.count {
            let length = min(Int(bytes[offset]), bytes.count - offset - 1)
            pieces.append(Array(bytes[(offset + 1)..<(offset + 1 + length)]))
            offset += 1 + length
        }
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else { return }
        guard let stream = pkr_stream_create(fds[0], UInt32(receiveCapacity), UInt32(sendCapacity)) else {
            close(fds[0])
            close(fds[1])
            return
        }
        let client = fds[1]
        defer {
            pkr_stream_destroy(stream)
            close(client)
        }

        // Reading: every piece written, then everything read and framed.
        var framed: [[UInt8]] = []
        var skipped: UInt32 = 0
        for piece in pieces {
            let written = piece.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            precondition(written == piece.count, "a socket pair takes a piece of at most 255 bytes")
            while pkr_stream_read(stream) > 0 {
                var frame: UnsafeMutablePointer<UInt8>?
                var length: UInt32 = 0
                while pkr_stream_next_frame(stream, UInt32(maximum), &frame, &length, &skipped) == 1 {
                    precondition(Int(length) <= maximum, "a frame longer than taken came out")
                    framed.append(Array(UnsafeBufferPointer(start: frame, count: Int(length))))
                }
            }
        }
        let model = Self.frames(of: pieces.flatMap { $0 }, maximum: maximum)
        precondition(framed == model.taken, "the reader's frames differ from the model's")
        precondition(Int(skipped) == model.skipped, "the reader passed over \(skipped) frames, the model \(model.skipped)")

        // Writing: the frames read are queued back, with the client reading now and then.
        var queued: [[UInt8]] = []
        var wire: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (index, frame) in model.taken.enumerated() {
            if frame.withUnsafeBytes({ pkr_stream_queue(stream, $0.baseAddress, UInt32($0.count)) }) == 1 { queued.append(frame) }
            precondition(pkr_stream_flush(stream) >= 0, "a socket pair does not fail")
            if index % 3 == 0 { Self.drain(client, into: &wire, buffer: &buffer) }
        }
        for _ in 0..<64 where pkr_stream_pending(stream) > 0 {
            Self.drain(client, into: &wire, buffer: &buffer)
            _ = pkr_stream_flush(stream)
        }
        Self.drain(client, into: &wire, buffer: &buffer)
        precondition(pkr_stream_pending(stream) == 0, "queued bytes left behind")
        let delivered = Self.frames(of: wire, maximum: Int(UInt16.max))
        precondition(delivered.taken == queued && delivered.rest == 0, "the client did not get the queued frames whole and in order")
    }

    /// The frames of a byte stream: those at most `maximum` long, how many were longer, and the
    /// bytes of an unfinished last frame.
    static func frames(of bytes: [UInt8], maximum: Int) -> (taken: [[UInt8]], skipped: Int, rest: Int) {
        var taken: [[UInt8]] = []
        var skipped = 0
        var offset = 0
        while bytes.count - offset >= 2 {
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            if length > maximum {
                // Passed over as it arrives, whole or not.
                skipped += 1
                offset = min(bytes.count, offset + 2 + length)
                continue
            }
            guard bytes.count - offset >= 2 + length else { break }
            taken.append(Array(bytes[(offset + 2)..<(offset + 2 + length)]))
            offset += 2 + length
        }
        return (taken, skipped, bytes.count - offset)
    }

    static func drain(_ fd: Int32, into wire: inout [UInt8], buffer: inout [UInt8]) {
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard got > 0 else { return }
            wire += buffer[..<got]
        }
    }
}
