/// How one subscriber of a ``MediaCoreFuzzRig`` receives: the send paths a subscriber transport
/// can take.
@_spi(Fuzzing) public enum MediaFuzzSubscriberKind: Sendable, Hashable, CaseIterable {
    /// Plain RTP: payloads may leave straight from the receive batch.
    case plain
    /// SRTP with AES-GCM, sealed on OpenSSL.
    case gcm
    /// SRTP with AES-CM and HMAC-SHA1.
    case aesCM
    /// AES-GCM with the publisher's header extensions rewritten, as for a WebRTC subscriber.
    case gcmRewritingExtensions
}
