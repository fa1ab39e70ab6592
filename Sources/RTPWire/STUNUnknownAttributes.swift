/// The comprehension-required attribute types of a message that this implementation does
/// not understand, kept in fixed storage so parsing never allocates.
///
/// Only the first `capacity` types are remembered; `count` still counts them all, so the
/// message is known to be unacceptable even when the list is cut short.
public struct STUNUnknownAttributes: Sendable, Equatable {
    /// How many types are remembered; a 420 response lists at most this many.
    public static let capacity = 4

    private var storage: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
    /// How many unknown comprehension-required attributes the message had (repeats included).
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// Whether the message had no unknown comprehension-required attribute.
    public var isEmpty: Bool { count == 0 }

    /// How many types are remembered: `count`, but at most `capacity`.
    public var storedCount: Int { min(count, Self.capacity) }

    /// The remembered type at `index` (0 ..< `storedCount`).
    public subscript(index: Int) -> STUNAttributeType {
        precondition(index >= 0 && index < storedCount, "index out of range")
        switch index {
        case 0: return STUNAttributeType(rawValue: storage.0)
        case 1: return STUNAttributeType(rawValue: storage.1)
        case 2: return STUNAttributeType(rawValue: storage.2)
        default: return STUNAttributeType(rawValue: storage.3)
        }
    }

    /// Records one more unknown type.
    mutating func append(_ type: STUNAttributeType) {
        switch count {
        case 0: storage.0 = type.rawValue
        case 1: storage.1 = type.rawValue
        case 2: storage.2 = type.rawValue
        case 3: storage.3 = type.rawValue
        default: break
        }
        count += 1
    }

    /// Equal when the counts and the remembered types agree.
    public static func == (lhs: STUNUnknownAttributes, rhs: STUNUnknownAttributes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return (0..<lhs.storedCount).allSatisfy { lhs[$0] == rhs[$0] }
    }
}
