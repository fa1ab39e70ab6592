/// Why the impairment relay could not start.
public enum ImpairmentRelayError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidAddress(String)
    case socket(errno: Int32)
    case bind(address: String, errno: Int32)
    case thread

    public var description: String {
        switch self {
        case .invalidAddress(let text): "not an IPv4 address and port: \(text)"
        case .socket(let errno): "socket failed (errno \(errno))"
        case .bind(let address, let errno): "cannot bind \(address) (errno \(errno))"
        case .thread: "cannot start the relay's thread"
        }
    }
}
