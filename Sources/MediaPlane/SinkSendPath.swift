/// How a sink's packets are written, chosen when the sink is bound to a source (or switched to
/// another), never per packet: whether the publisher's header extensions are replaced by the
/// subscriber's (WebRTC subscribers) and whether VP8 picture IDs are rewritten (VP8 sources).
/// Retransmissions take the sink's RFC 4588 stream when it has one, else the same path.
enum SinkSendPath: Sendable, Hashable {
    /// Copy the packet, new SSRC, sequence number and timestamp.
    case copy
    /// The same, and VP8 picture IDs kept continuous across the sink's sources.
    case copyRewritingVP8
    /// Extensions left out except the audio level under the subscriber's id (and the
    /// transport-wide number, when the transport stamps them).
    case rewriteExtensions
    /// Both.
    case rewriteExtensionsAndVP8

    init(rewritesExtensions: Bool, rewritesVP8: Bool) {
        switch (rewritesExtensions, rewritesVP8) {
        case (false, false): self = .copy
        case (false, true): self = .copyRewritingVP8
        case (true, false): self = .rewriteExtensions
        case (true, true): self = .rewriteExtensionsAndVP8
        }
    }

    var rewritesVP8: Bool { self == .copyRewritingVP8 || self == .rewriteExtensionsAndVP8 }
}
