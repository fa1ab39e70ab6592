/// A media direction attribute (`a=sendrecv`, `a=sendonly`, `a=recvonly`, `a=inactive`),
/// always from the point of view of the side that wrote the description.
public enum SDPDirection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The writer sends and receives.
    case sendrecv
    /// The writer only sends.
    case sendonly
    /// The writer only receives.
    case recvonly
    /// The writer neither sends nor receives.
    case inactive

    /// Whether the writer of the description sends media in this direction.
    public var sends: Bool { self == .sendrecv || self == .sendonly }

    /// Whether the writer of the description receives media in this direction.
    public var receives: Bool { self == .sendrecv || self == .recvonly }

    /// The direction seen from the other side: what one side sends the other receives.
    public var reversed: SDPDirection {
        switch self {
        case .sendrecv: .sendrecv
        case .sendonly: .recvonly
        case .recvonly: .sendonly
        case .inactive: .inactive
        }
    }

    /// The attribute name, such as `sendonly`.
    public var description: String { rawValue }
}
