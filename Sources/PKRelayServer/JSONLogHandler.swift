public import Foundation
public import Logging

/// Writes one JSON object per log line to standard error: time, level, label, message and
/// metadata. The four fields are the handler's own: metadata under one of their names is
/// written as `metadata.<name>` instead of replacing them, so a log pipeline can always rely
/// on them.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    /// Where each finished line goes (standard error, unless a test reads them).
    let write: @Sendable (String) -> Void
    /// The moment of a log line; tests fix it.
    let now: @Sendable () -> Date

    /// The fields every line has, in the handler's own meaning.
    static let reservedKeys: Set<String> = ["time", "level", "label", "message"]
    /// One format for every line (ISO 8601 with milliseconds, UTC), made once: a value, so it
    /// is shared by every handler and thread without a lock.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public init(label: String) {
        self.init(label: label, now: { Date() }, write: { line in FileHandle.standardError.write(Data(line.utf8)) })
    }

    init(label: String, now: @escaping @Sendable () -> Date, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.now = now
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [
            "time": now().formatted(Self.timeFormat),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[Self.reservedKeys.contains(key) ? "metadata.\(key)" : key] = value.description
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
