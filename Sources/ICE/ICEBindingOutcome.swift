public import RTPWire

/// What to do with a received Binding request, as decided by `ICELiteAgent`.
public enum ICEBindingOutcome: Sendable, Hashable {
    /// Send the success response of `length` bytes now in the response buffer back to the
    /// sender; `event` reports a change of the selected address, if this check made one.
    case respond(length: Int, event: ICEAgentEvent?)
    /// Send the error response of `length` bytes now in the response buffer back to the sender.
    case respondError(length: Int, code: STUNErrorCode)
    /// Send nothing.
    case drop(ICEDropReason)
}
