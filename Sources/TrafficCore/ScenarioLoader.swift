import Foundation
import Yams

/// Reads scenario YAML files (see Config/scenarios/) into ``ScenarioSpec`` values.
///
/// Every key is optional and falls back to the built-in default; unknown keys and values of
/// the wrong type are refused with the key's path, so a typo never silently runs another load.
public enum ScenarioLoader {
    /// The directory scenario files are looked up in, relative to the working directory.
    public static let defaultDirectory = "Config/scenarios"

    /// The built-in scenario called `name` (used when no file of that name is found).
    public static func builtIn(_ name: String) -> ScenarioSpec? {
        guard let kind = ScenarioKind(rawValue: name) else { return nil }
        var spec = ScenarioSpec(name: name, kind: kind)
        switch kind {
        case .pkShowroom:
            spec.rooms = 2
            spec.audiencePerRoom = 5
        case .pkCluster:
            spec.rooms = 4
            spec.audiencePerRoom = 5
        case .fanout:
            spec.subscribers = 20
            spec.findMaxStep = 20
            spec.findMaxLimit = 900
        case .churn:
            spec.rooms = 2
            spec.audiencePerRoom = 4
        }
        return spec
    }

    /// Finds `name`: a path to a YAML file, else `NAME.yaml` in one of `directories`, else the
    /// built-in scenario of that name.
    public static func resolve(_ name: String, directories: [String]) throws(ScenarioError) -> ScenarioSpec {
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") {
            return try load(path: name)
        }
        for directory in directories {
            let path = directory + "/" + name + ".yaml"
            if FileManager.default.fileExists(atPath: path) { return try load(path: path) }
        }
        if let spec = builtIn(name) { return spec }
        throw ScenarioError(
            "no scenario '\(name)' (looked in \(directories.joined(separator: ", ")); built in: "
                + "\(ScenarioKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
    }

    /// Reads a scenario file.
    public static func load(path: String) throws(ScenarioError) -> ScenarioSpec {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError("cannot read \(path): \(error.localizedDescription)")
        }
        return try parse(text, source: path)
    }

    /// Parses scenario YAML text.
    public static func parse(_ text: String, source: String = "scenario") throws(ScenarioError) -> ScenarioSpec {
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: text)
        } catch {
            throw ScenarioError("\(source) is not valid YAML: \(error)")
        }
        guard let root = loaded as? [String: Any] else { throw ScenarioError("\(source): a scenario is a YAML mapping") }
        var reader = Reader(values: root, path: "")
        guard let kindText = try reader.string("kind") else {
            throw ScenarioError("\(source): kind is required (\(ScenarioKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let kind = ScenarioKind(rawValue: kindText) else {
            throw ScenarioError("\(source): kind '\(kindText)' is not one of \(ScenarioKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let name = try reader.string("name") ?? kind.rawValue
        var spec = builtIn(kind.rawValue) ?? ScenarioSpec(name: name, kind: kind)
        spec.name = name
        spec.rooms = try reader.int("rooms", in: 1...10_000) ?? spec.rooms
        spec.audiencePerRoom = try reader.int("audiencePerRoom", in: 0...10_000) ?? spec.audiencePerRoom
        spec.subscribers = try reader.int("subscribers", in: 1...100_000) ?? spec.subscribers
        if let mode = try reader.string("pkMode") {
            guard let parsed = PKMode(rawValue: mode) else { throw ScenarioError("\(source): pkMode '\(mode)' is not link or forward") }
            spec.pkMode = parsed
        }
        if var video = try reader.section("video") {
            spec.video.width = try video.int("width", in: 16...7680) ?? spec.video.width
            spec.video.height = try video.int("height", in: 16...4320) ?? spec.video.height
            spec.video.fps = try video.int("fps", in: 1...120) ?? spec.video.fps
            spec.video.kbps = try video.int("kbps", in: 8...50_000) ?? spec.video.kbps
            spec.video.keyframeIntervalSeconds = try video.double("keyframeIntervalSeconds", in: 0.1...600) ?? spec.video.keyframeIntervalSeconds
            spec.video.maxPayloadBytes = try video.int("maxPayloadBytes", in: 200...1400) ?? spec.video.maxPayloadBytes
            try video.finish(source)
        }
        if var audio = try reader.section("audio") {
            spec.audio.packetsPerSecond = try audio.int("packetsPerSecond", in: 1...200) ?? spec.audio.packetsPerSecond
            spec.audio.payloadBytes = try audio.int("payloadBytes", in: 32...1200) ?? spec.audio.payloadBytes
            try audio.finish(source)
        }
        if var churn = try reader.section("churn") {
            spec.churn.stayMinSeconds = try churn.double("stayMinSeconds", in: 0.1...3600) ?? spec.churn.stayMinSeconds
            spec.churn.stayMaxSeconds = try churn.double("stayMaxSeconds", in: 0.1...3600) ?? spec.churn.stayMaxSeconds
            spec.churn.forwardOnSeconds = try churn.double("forwardOnSeconds", in: 0.1...3600) ?? spec.churn.forwardOnSeconds
            spec.churn.forwardOffSeconds = try churn.double("forwardOffSeconds", in: 0.1...3600) ?? spec.churn.forwardOffSeconds
            spec.churn.linkOnSeconds = try churn.double("linkOnSeconds", in: 0.1...3600) ?? spec.churn.linkOnSeconds
            spec.churn.linkOffSeconds = try churn.double("linkOffSeconds", in: 0.1...3600) ?? spec.churn.linkOffSeconds
            try churn.finish(source)
            if spec.churn.stayMaxSeconds < spec.churn.stayMinSeconds { throw ScenarioError("\(source): churn.stayMaxSeconds is below stayMinSeconds") }
        }
        if var findMax = try reader.section("findMax") {
            spec.findMaxStep = try findMax.int("step", in: 1...10_000) ?? spec.findMaxStep
            spec.findMaxLimit = try findMax.int("limit", in: 1...100_000) ?? spec.findMaxLimit
            try findMax.finish(source)
        }
        try reader.finish(source)
        return spec
    }

    /// Reads typed values from one YAML mapping and remembers which keys were used.
    struct Reader {
        var values: [String: Any]
        var path: String
        var used: Set<String> = []

        init(values: [String: Any], path: String) {
            self.values = values
            self.path = path
        }

        func key(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

        mutating func value(_ name: String) -> Any? {
            used.insert(name)
            return values[name]
        }

        mutating func string(_ name: String) throws(ScenarioError) -> String? {
            guard let raw = value(name) else { return nil }
            guard let text = raw as? String else { throw ScenarioError("\(key(name)) must be a string") }
            return text
        }

        mutating func int(_ name: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int? {
            guard let raw = value(name) else { return nil }
            guard let number = raw as? Int else { throw ScenarioError("\(key(name)) must be a whole number") }
            guard range.contains(number) else { throw ScenarioError("\(key(name)) must be in \(range.lowerBound)...\(range.upperBound)") }
            return number
        }

        mutating func double(_ name: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double? {
            guard let raw = value(name) else { return nil }
            let number: Double
            if let whole = raw as? Int {
                number = Double(whole)
            } else if let fraction = raw as? Double {
                number = fraction
            } else {
                throw ScenarioError("\(key(name)) must be a number")
            }
            guard range.contains(number) else { throw ScenarioError("\(key(name)) must be in \(range.lowerBound)...\(range.upperBound)") }
            return number
        }

        mutating func section(_ name: String) throws(ScenarioError) -> Reader? {
            guard let raw = value(name) else { return nil }
            guard let mapping = raw as? [String: Any] else { throw ScenarioError("\(key(name)) must be a mapping") }
            return Reader(values: mapping, path: key(name))
        }

        func finish(_ source: String) throws(ScenarioError) {
            if let unknown = values.keys.sorted().first(where: { !used.contains($0) }) {
                throw ScenarioError("\(source): unknown key \(key(unknown))")
            }
        }
    }
}
