/// The bytes one subscriber may still be resent: a bucket that what the relay sends it fills by
/// ``percent`` of each byte, up to ``burstBytes``, and that every retransmission empties by its
/// size. A subscriber can thus never make the relay send more than its stream's bytes times
/// (1 + percent / 100), plus one burst.
public struct RetransmissionBudget: Sendable, Hashable {
    /// Resendable bytes earned per 100 bytes of the stream.
    public let percent: Int
    /// The bucket's size, and what it holds at the start.
    public let burstBytes: Int
    /// What the bucket holds, in hundredths of a byte so that no earned fraction is lost.
    private var availableHundredths: Int
    /// The stream's byte count when the bucket was last filled.
    private var streamBytesCounted: UInt64

    /// - Parameters:
    ///   - percent: resendable bytes per 100 bytes of the stream (0-10 000).
    ///   - burstBytes: the bucket's size (0-2^40), full at the start.
    ///   - streamBytesSent: the stream's byte count now; only what it sends later earns.
    public init(percent: Int, burstBytes: Int, streamBytesSent: UInt64 = 0) {
        self.percent = min(max(percent, 0), 10_000)
        self.burstBytes = min(max(burstBytes, 0), 1 << 40)
        availableHundredths = self.burstBytes * 100
        streamBytesCounted = streamBytesSent
    }

    /// The whole bytes the bucket holds now.
    public var availableBytes: Int { availableHundredths / 100 }

    /// Fills the bucket by what the stream sent since the last call.
    ///
    /// - Parameter streamBytesSent: the stream's running byte count (only its growth counts).
    public mutating func earn(streamBytesSent: UInt64) {
        guard streamBytesSent > streamBytesCounted else { return }
        // The cap keeps the product in range; a jump that large fills the bucket anyway.
        let grown = Int(min(streamBytesSent - streamBytesCounted, 1 << 40))
        streamBytesCounted = streamBytesSent
        availableHundredths = min(burstBytes * 100, availableHundredths + grown * percent)
    }

    /// Whether `bytes` fit in the bucket now.
    public func affords(_ bytes: Int) -> Bool { bytes * 100 <= availableHundredths }

    /// Takes `bytes` out of the bucket (a retransmission that went out).
    public mutating func spend(_ bytes: Int) {
        availableHundredths = max(0, availableHundredths - bytes * 100)
    }
}
