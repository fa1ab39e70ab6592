/// What one packet's sequence number meant to a ``SequenceLossCounter``.
public enum SequenceArrival: Sendable, Equatable {
    /// The first packet of the stream.
    case first
    /// A new highest sequence number; `missing` holds the extended numbers skipped over
    /// (empty when the packet followed the previous one directly).
    case advanced(missing: ClosedRange<Int64>?)
    /// An older number not seen before: reordering or a retransmission filling a gap.
    case late
    /// A number already counted.
    case duplicate
    /// Older than the counter's window: it can no longer tell whether it was seen.
    case tooOld
}
