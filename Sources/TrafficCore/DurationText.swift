import Foundation

/// Durations written as on the command line: a positive number with `ms`, `s`, `m` or `h`
/// (a bare number is seconds), e.g. `30s`, `1.5m`, `500ms`.
public enum DurationText {
    /// The duration in seconds, or nil when `text` is not a positive duration.
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number > 0, number.isFinite else { return nil }
            return number * factor
        }
        guard let number = Double(trimmed), number > 0, number.isFinite else { return nil }
        return number
    }
}
