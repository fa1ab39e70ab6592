/// A direction through the impairment relay, seen from the client.
public enum ImpairmentDirection: String, Sendable, CaseIterable {
    /// From the client to the target (a publisher's media, a subscriber's feedback).
    case uplink
    /// From the target to the client (a subscriber's media, a publisher's feedback).
    case downlink
}
