import Yams

extension RelayConfiguration {
    /// Reads YAML text into plain values (dictionaries, arrays, scalars).
    ///
    /// Yams turns every mapping key into a string and traps when a key is anything else, such as
    /// a list or mapping after `?` (`? [a, b]: 1`); such documents are refused here
    /// first, naming where the key is, instead of stopping the relay.
    ///
    /// - Parameters:
    ///   - key: the configuration key or variable the text is for ("" for the whole file), used in
    ///     errors.
    ///   - what: what the text should have been, for errors ("valid YAML", "a valid YAML value").
    static func yamlDocument(_ text: String, key: String, what: String) throws(ConfigurationError) -> Any? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(key: key, reason: "not \(what): \(error)")
        }
        guard let root else { return nil }
        if let path = firstKeyThatIsNotText(in: root, path: key) {
            throw ConfigurationError(key: path, reason: "not \(what): a mapping key is a list, mapping or alias; keys are plain names")
        }
        return root.any
    }

    /// The dotted path of the first mapping whose keys are not all scalars, or nil.
    private static func firstKeyThatIsNotText(in node: Node, path: String) -> String? {
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard case .scalar(let scalar) = key else { return path }
                let child = path.isEmpty ? scalar.string : "\(path).\(scalar.string)"
                if let found = firstKeyThatIsNotText(in: value, path: child) { return found }
            }
            return nil
        case .sequence(let sequence):
            for (index, item) in sequence.enumerated() {
                if let found = firstKeyThatIsNotText(in: item, path: "\(path)[\(index)]") { return found }
            }
            return nil
        case .scalar, .alias:
            // Composing resolves aliases to their anchored nodes; an alias left here is no key.
            return nil
        }
    }
}
