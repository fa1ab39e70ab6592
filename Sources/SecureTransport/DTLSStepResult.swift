/// What one call into a ``DTLSEndpoint`` produced.
public struct DTLSStepResult: Sendable {
    /// Datagrams to send to the peer, in order; each one is a whole UDP payload.
    public let datagrams: [[UInt8]]
    /// The endpoint's new state when the call changed it, `nil` when the state stayed.
    public let newState: DTLSState?

    /// A step result.
    public init(datagrams: [[UInt8]], newState: DTLSState?) {
        self.datagrams = datagrams
        self.newState = newState
    }
}
