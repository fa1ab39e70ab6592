/// The local ids of the header extensions the relay reads, as negotiated for one section;
/// nil for an extension that was not negotiated.
public struct NegotiatedHeaderExtensions: Sendable, Hashable {
    /// The id of `urn:ietf:params:rtp-hdrext:sdes:mid`.
    public var mid: UInt8?
    /// The id of `urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id`.
    public var rtpStreamID: UInt8?
    /// The id of `urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id`.
    public var repairedRTPStreamID: UInt8?
    /// The id of `urn:ietf:params:rtp-hdrext:ssrc-audio-level`.
    public var audioLevel: UInt8?
    /// The id of the transport-wide sequence number
    /// (`http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01`).
    public var transportWideSequenceNumber: UInt8?

    /// Creates the ids.
    public init(
        mid: UInt8? = nil, rtpStreamID: UInt8? = nil, repairedRTPStreamID: UInt8? = nil, audioLevel: UInt8? = nil,
        transportWideSequenceNumber: UInt8? = nil
    ) {
        self.mid = mid
        self.rtpStreamID = rtpStreamID
        self.repairedRTPStreamID = repairedRTPStreamID
        self.audioLevel = audioLevel
        self.transportWideSequenceNumber = transportWideSequenceNumber
    }

    /// Reads the ids from the `a=extmap` attributes of a section.
    init(_ maps: [SDPExtensionMap]) {
        func id(_ uri: String) -> UInt8? { maps.first { $0.uri == uri }?.id }
        self.init(
            mid: id(HeaderExtensionURI.mid), rtpStreamID: id(HeaderExtensionURI.rtpStreamID),
            repairedRTPStreamID: id(HeaderExtensionURI.repairedRTPStreamID), audioLevel: id(HeaderExtensionURI.audioLevel),
            transportWideSequenceNumber: id(HeaderExtensionURI.transportWideSequenceNumber))
    }
}
