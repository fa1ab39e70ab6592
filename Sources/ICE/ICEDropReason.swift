public import RTPWire

/// Why an ICE-lite agent answered a received STUN message with nothing.
public enum ICEDropReason: Sendable, Hashable {
    /// Not a STUN message, or one whose header or FINGERPRINT is wrong; answering could
    /// answer something that is not STUN at all.
    case malformed(STUNParseError)
    /// An indication or a response; a lite agent sends no requests, so nothing is awaited.
    case notARequest(STUNMessageClass)
    /// A request for a method other than Binding.
    case unsupportedMethod(STUNMethod)
    /// The caller's response buffer cannot hold the request's signed bytes or the answer.
    case responseBufferTooSmall
    /// The agent has expired and accepts nothing more.
    case agentExpired
}
