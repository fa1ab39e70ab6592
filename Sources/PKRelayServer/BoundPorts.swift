/// The ports the relay's listeners are bound to (useful when configured with port 0).
public struct BoundPorts: Sendable, Hashable {
    public var control: Int
    public var admin: Int
}
