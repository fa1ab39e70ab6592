/// The pace of the churn scenario: how long audience members stay, how long forwards run and
/// pause, and how long PK links run and pause.
public struct ChurnProfile: Sendable, Codable, Hashable {
    public var stayMinSeconds: Double = 2
    public var stayMaxSeconds: Double = 6
    public var forwardOnSeconds: Double = 4
    public var forwardOffSeconds: Double = 2
    public var linkOnSeconds: Double = 4
    public var linkOffSeconds: Double = 2

    public init() {}
}
