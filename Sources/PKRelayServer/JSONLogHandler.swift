import Foundation
import Logging

/// Writes one JSON object per log line to standard error: time, level, label, message and metadata.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [
            "time": ISO8601DateFormatter().string(from: Date()),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = value.description
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}
