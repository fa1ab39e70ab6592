/// Packs a transport-wide feedback's status symbols into packet chunks as they come, without
/// looking ahead: a run of one symbol becomes a run-length chunk (up to 8191 packets), mixed
/// symbols a status vector chunk, of fourteen one-bit symbols when none needs a two-byte delta,
/// else of seven two-bit ones. Every chunk but the last is full, as the format requires; the last
/// may cover more packets than the status count, and those symbols are not read.
struct TransportFeedbackChunker {
    /// Symbols not yet in a chunk: the first fourteen are kept (beyond that they are all equal).
    private var pending: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private var allSame = true
    private var hasLargeDelta = false

    static let maximumRunLength = 0x1FFF
    static let oneBitCapacity = 14
    static let twoBitCapacity = 7

    /// Adds a symbol; every chunk it completes goes to `emit` as the 16-bit chunk.
    mutating func add(_ symbol: TransportFeedbackSymbol, emit: (UInt16) -> Void) {
        let value = symbol.rawValue
        if count == 0 {
            start(value)
            return
        }
        if allSame, value == pendingSymbol(0) {
            if count < Self.maximumRunLength {
                if count < Self.oneBitCapacity { setPending(count, value) }
                count += 1
                return
            }
            emit(Self.runLengthChunk(symbol: value, length: count))
            start(value)
            return
        }
        if allSame, count >= Self.twoBitCapacity {
            emit(Self.runLengthChunk(symbol: pendingSymbol(0), length: count))
            start(value)
            return
        }
        let capacity = hasLargeDelta || symbol == .largeDelta ? Self.twoBitCapacity : Self.oneBitCapacity
        if count < capacity {
            append(value)
            return
        }
        if !hasLargeDelta, count == Self.oneBitCapacity {
            emit(oneBitVectorChunk(from: 0, count: Self.oneBitCapacity))
            start(value)
            return
        }
        // Seven or more symbols of which the first seven fit a two-bit chunk; the rest wait.
        emit(twoBitVectorChunk(from: 0, count: Self.twoBitCapacity))
        // Fewer than seven remain (a two-bit chunk was due as soon as seven were pending).
        let rest = count - Self.twoBitCapacity
        allSame = true
        hasLargeDelta = false
        for index in 0..<rest {
            let kept = pendingSymbol(Self.twoBitCapacity + index)
            setPending(index, kept)
            if kept != pendingSymbol(0) { allSame = false }
            if kept == TransportFeedbackSymbol.largeDelta.rawValue { hasLargeDelta = true }
        }
        count = rest
        add(symbol, emit: emit)
    }

    /// Emits what is left as the last chunk.
    mutating func finish(emit: (UInt16) -> Void) {
        guard count > 0 else { return }
        if allSame {
            emit(Self.runLengthChunk(symbol: pendingSymbol(0), length: count))
        } else if hasLargeDelta {
            emit(twoBitVectorChunk(from: 0, count: count))
        } else {
            emit(oneBitVectorChunk(from: 0, count: count))
        }
        count = 0
    }

    /// At most how many chunks `packets` symbols take: every chunk but the last holds at least seven.
    static func maximumChunks(forPackets packets: Int) -> Int { packets / twoBitCapacity + 2 }

    private mutating func start(_ value: UInt8) {
        count = 1
        allSame = true
        hasLargeDelta = value == TransportFeedbackSymbol.largeDelta.rawValue
        setPending(0, value)
    }

    private mutating func append(_ value: UInt8) {
        setPending(count, value)
        count += 1
        allSame = false
        if value == TransportFeedbackSymbol.largeDelta.rawValue { hasLargeDelta = true }
    }

    private func pendingSymbol(_ index: Int) -> UInt8 {
        withUnsafeBytes(of: pending) { $0[index] }
    }

    private mutating func setPending(_ index: Int, _ value: UInt8) {
        withUnsafeMutableBytes(of: &pending) { $0[index] = value }
    }

    static func runLengthChunk(symbol: UInt8, length: Int) -> UInt16 {
        UInt16(symbol & 0x03) << 13 | UInt16(length & maximumRunLength)
    }

    private func oneBitVectorChunk(from start: Int, count: Int) -> UInt16 {
        var chunk: UInt16 = 0x8000
        for index in 0..<count where pendingSymbol(start + index) != 0 {
            chunk |= 1 << (13 - index)
        }
        return chunk
    }

    private func twoBitVectorChunk(from start: Int, count: Int) -> UInt16 {
        var chunk: UInt16 = 0xC000
        for index in 0..<count {
            chunk |= UInt16(pendingSymbol(start + index) & 0x03) << (12 - 2 * index)
        }
        return chunk
    }
}
