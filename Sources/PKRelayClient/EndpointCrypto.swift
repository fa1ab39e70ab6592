import SecureTransport

/// The SRTP sessions of one ``MediaEndpoint``: a sender keyed with the endpoint's own key and a
/// receiver keyed with the relay's. Only used while holding the endpoint's crypto lock.
final class EndpointCrypto {
    let sender: SRTPSession?
    let receiver: SRTPSession?

    init(sender: SRTPSession?, receiver: SRTPSession?) {
        self.sender = sender
        self.receiver = receiver
    }
}
