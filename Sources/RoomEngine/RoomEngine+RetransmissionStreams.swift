import Protocol

/// Retransmission streams for SRTP subscribers that stamp transport-wide numbers.
extension RoomEngine {
    /// The payload type of a sink's retransmission stream for the video `description`: its
    /// publisher's own where it sends one, else the first dynamic payload type the publication
    /// leaves free (an ffmpeg publisher names no RTX, yet its viewers' repairs need one).
    static func retransmissionPayloadType(for description: TrackDescription, in publication: Publication) -> UInt8 {
        if let own = description.rtxPayloadType { return UInt8(clamping: own) }
        let used = Set(publication.descriptions.flatMap { [$0.payloadType] + ($0.rtxPayloadType.map { [$0] } ?? []) })
        let free = (96...127).first { !used.contains($0) } ?? 127
        return UInt8(free)
    }
}
