/// A packet's status in a transport-wide feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01,
/// section 3.1.1): the two-bit symbol, which also says how many bytes its receive delta takes.
enum TransportFeedbackSymbol: UInt8 {
    case notReceived = 0
    /// Received, with a delta of 0...255 ticks (one byte).
    case smallDelta = 1
    /// Received, with a delta that is negative or over 255 ticks (two bytes, signed).
    case largeDelta = 2

    /// Bytes the packet's receive delta takes.
    var deltaBytes: Int { Int(rawValue) }
}
