import Foundation

/// Reads one mapping of a parsed YAML document strictly: every key must be known, every value of
/// the right type and range. `finish()` reports the first unknown key.
struct ConfigurationReader {
    let path: String
    private let values: [String: Any]
    private var consumed: Set<String> = []

    init(_ value: Any?, path: String) throws(ConfigurationError) {
        self.path = path
        switch value {
        case nil, is NSNull:
            values = [:]
        case let mapping as [String: Any]:
            values = mapping
        case let mapping as [AnyHashable: Any]:
            var converted: [String: Any] = [:]
            for (key, item) in mapping {
                guard let key = key as? String else { throw ConfigurationError(key: path, reason: "keys must be strings") }
                converted[key] = item
            }
            values = converted
        default:
            throw ConfigurationError(key: path, reason: "must be a mapping of keys to values")
        }
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func raw(_ key: String) -> Any? {
        consumed.insert(key)
        let value = values[key]
        if value is NSNull { return nil }
        return value
    }

    mutating func section(_ key: String) throws(ConfigurationError) -> ConfigurationReader {
        try ConfigurationReader(raw(key), path: name(key))
    }

    mutating func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let value = raw(key) else { return fallback }
        guard let number = value as? Int, !(value is Bool) else { throw ConfigurationError(key: name(key), reason: "must be a whole number") }
        guard range.contains(number) else {
            throw ConfigurationError(key: name(key), reason: "must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    mutating func bool(_ key: String, default fallback: Bool) throws(ConfigurationError) -> Bool {
        guard let value = raw(key) else { return fallback }
        guard let flag = value as? Bool else { throw ConfigurationError(key: name(key), reason: "must be true or false") }
        return flag
    }

    mutating func string(_ key: String, default fallback: String?) throws(ConfigurationError) -> String? {
        guard let value = raw(key) else { return fallback }
        guard let text = value as? String else { throw ConfigurationError(key: name(key), reason: "must be a string") }
        return text
    }

    mutating func choice(_ key: String, default fallback: String, from options: [String]) throws(ConfigurationError) -> String {
        let value = try string(key, default: fallback) ?? fallback
        guard options.contains(value) else {
            throw ConfigurationError(key: name(key), reason: "must be one of \(options.joined(separator: ", ")), got '\(value)'")
        }
        return value
    }

    mutating func list(_ key: String) throws(ConfigurationError) -> [Any]? {
        guard let value = raw(key) else { return nil }
        guard let items = value as? [Any] else { throw ConfigurationError(key: name(key), reason: "must be a list") }
        return items
    }

    func finish() throws(ConfigurationError) {
        if let unknown = values.keys.filter({ !consumed.contains($0) }).sorted().first {
            throw ConfigurationError(key: name(unknown), reason: "unknown key")
        }
    }
}
