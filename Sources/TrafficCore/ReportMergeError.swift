/// Why reports cannot be merged.
public struct ReportMergeError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
