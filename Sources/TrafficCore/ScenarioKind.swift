/// The shapes of load the traffic tool knows.
public enum ScenarioKind: String, Sendable, Codable, CaseIterable {
    /// N rooms, one anchor and A audience members each, rooms paired into PK links.
    case pkShowroom = "pk-showroom"
    /// One publisher and M subscribers in one room.
    case fanout
    /// Audience members joining and leaving, forwards and PK links starting and stopping, continuously.
    case churn
    /// pk-showroom across a cluster: room i lives on node i mod the number of relays given, so
    /// every PK pair straddles two nodes.
    case pkCluster = "pk-cluster"
}
