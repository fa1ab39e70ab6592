import PKRelayServer

extension FuzzTarget {
    /// The input is a configuration file, optionally followed by a NUL byte and environment
    /// lines (`NAME=value`, one per line) such as `PKRELAY_MEDIA_THREADS=2`.
    ///
    /// Reading must refuse or accept, never crash; an accepted configuration must describe its
    /// effective settings as `pkrelay config check` prints them.
    static func runConfig(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false)
        var environment: [String: String] = [:]
        if parts.count == 2 {
            for line in parts[1].split(separator: "\n") {
                let pair = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2 { environment[String(pair[0])] = String(pair[1]) }
            }
        }
        guard let configuration = try? RelayConfiguration.load(yaml: String(parts[0]), environment: environment) else { return }
        _ = configuration.effectiveSettings
        _ = RelayConfiguration.environmentOverrides(in: environment)
    }
}
