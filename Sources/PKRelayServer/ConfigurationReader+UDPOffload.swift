import MediaPlane

extension ConfigurationReader {
    /// `auto`, `on` or `off`. YAML 1.1 reads a bare `on`/`off` (and `yes`/`no`, `true`/`false`)
    /// as a boolean, so those mean on and off too.
    mutating func offload(_ key: String, default fallback: UDPOffload) throws(ConfigurationError) -> UDPOffload {
        guard let value = raw(key) else { return fallback }
        if let flag = value as? Bool { return flag ? .on : .off }
        guard let text = value as? String, let mode = UDPOffload(rawValue: text) else {
            throw ConfigurationError(key: name(key), reason: "must be one of auto, on, off, got '\(value)'")
        }
        return mode
    }
}
