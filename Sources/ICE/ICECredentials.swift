/// The ICE username fragment and password of one agent (RFC 8445 section 5.3, RFC 8839
/// section 5.4), as exchanged in SDP as a=ice-ufrag and a=ice-pwd.
public struct ICECredentials: Sendable, Hashable {
    /// The username fragment.
    public var ufrag: String
    /// The password; it keys MESSAGE-INTEGRITY of checks sent to this agent.
    public var password: String

    /// Shortest username fragment RFC 8839 allows.
    public static let minimumUfragLength = 4
    /// Shortest password RFC 8839 allows (22 ice-chars carry at least 128 bits).
    public static let minimumPasswordLength = 22
    /// Longest username fragment or password RFC 8839 allows.
    public static let maximumLength = 256

    /// Creates credentials from known values, unchecked; see `isValid`.
    public init(ufrag: String, password: String) {
        self.ufrag = ufrag
        self.password = password
    }

    /// Whether both parts consist of ice-chars (letters, digits, "+" and "/") and have
    /// lengths RFC 8839 allows, as credentials from a peer's SDP must.
    public var isValid: Bool {
        Self.isICEString(ufrag, minimumLength: Self.minimumUfragLength)
            && Self.isICEString(password, minimumLength: Self.minimumPasswordLength)
    }

    private static func isICEString(_ text: String, minimumLength: Int) -> Bool {
        let utf8 = text.utf8
        return (minimumLength...maximumLength).contains(utf8.count) && utf8.allSatisfy(isICEChar)
    }

    /// Whether `byte` is an ice-char: ALPHA, DIGIT, "+" or "/".
    static func isICEChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
