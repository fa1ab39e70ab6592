/// Reads session description text line by line into a `SessionDescription`.
///
/// Strict about what the relay relies on (the transport attributes, mids, codecs, header
/// extensions, SSRCs, rids and simulcast) and tolerant of the rest: unknown attributes are
/// kept, unknown line types are skipped, LF and CRLF endings and stray spaces are accepted.
struct SDPParser {
    /// Attributes that may appear once per section; the direction flags share one entry.
    private static let onceOnlyAttributes: Set<String> = ["mid", "setup", "ice-ufrag", "ice-pwd", "simulcast"]

    private var origin: SDPOrigin?
    private var session = SessionDescription(origin: SDPOrigin(sessionID: 0, sessionVersion: 0))
    private var sawSessionName = false
    private var sawTiming = false
    private var current: MediaDescription?
    private var seenOnceOnly: Set<String> = []

    /// Parses `text`.
    static func parse(_ text: String) throws(SDPParseError) -> SessionDescription {
        var parser = SDPParser()
        var lineNumber = 0
        var sawVersion = false
        for rawLine in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let line = Self.trimmedLine(rawLine) else { continue }
            // A carriage return inside a line would end it for the next reader of what the
            // relay writes back (an answer echoes the offer's formats and tokens).
            guard !line.utf8.contains(where: { $0 == 0x0D || $0 == 0x00 }) else { throw .forbiddenCharacter(line: lineNumber) }
            // The type letter and `=` are read as bytes: read as characters, a combining mark
            // after the `=` would join it (see SDPText).
            let bytes = line.utf8
            guard let letter = bytes.first, (0x61...0x7A).contains(letter), bytes.dropFirst().first == UInt8(ascii: "=") else {
                throw .malformedLine(line: lineNumber)
            }
            let type = Character(Unicode.Scalar(letter))
            let value = SDPText.droppingASCII(2, from: line)
            guard sawVersion else {
                guard type == "v" else { throw .missingVersion(line: lineNumber) }
                guard SDPText.trimmed(value) == "0" else { throw .unsupportedVersion(line: lineNumber) }
                sawVersion = true
                continue
            }
            try parser.read(type: type, value: value, line: lineNumber)
        }
        guard sawVersion else { throw .empty }
        return try parser.finish()
    }

    /// The line without its line ending and surrounding blanks, or nil when nothing is left.
    private static func trimmedLine(_ raw: Substring.UTF8View) -> Substring? {
        let isBlank: (UInt8) -> Bool = { SDPText.isBlank($0) || $0 == 0x0D }
        guard let first = raw.firstIndex(where: { !isBlank($0) }),
            let last = raw.lastIndex(where: { !isBlank($0) })
        else { return nil }
        // A fresh string keeps Character boundaries away from the removed carriage return.
        return Substring(String(decoding: raw[first...last], as: UTF8.self))
    }

    private mutating func read(type: Character, value: Substring, line: Int) throws(SDPParseError) {
        switch type {
        case "v":
            throw current == nil ? .duplicateLine(line: line, type: "v") : .lineOutOfPlace(line: line, type: "v")
        case "o":
            guard current == nil else { throw .lineOutOfPlace(line: line, type: "o") }
            guard origin == nil else { throw .duplicateLine(line: line, type: "o") }
            guard let parsed = SDPOrigin(sdpValue: value) else { throw .invalidLine(line: line, type: "o") }
            origin = parsed
        case "s":
            guard current == nil else { throw .lineOutOfPlace(line: line, type: "s") }
            guard !sawSessionName else { throw .duplicateLine(line: line, type: "s") }
            sawSessionName = true
            session.sessionName = String(value)
        case "t":
            guard current == nil else { throw .lineOutOfPlace(line: line, type: "t") }
            // Later time descriptions and malformed ones do not matter to WebRTC.
            if !sawTiming, let timing = SDPTiming(sdpValue: value) { session.timing = timing }
            sawTiming = true
        case "c":
            // The relay never sends to the c= address (ICE decides), so a bad one is skipped.
            guard let connection = SDPConnection(sdpValue: value) else { return }
            if current != nil { current?.connection = connection } else { session.connection = connection }
        case "b":
            guard let bandwidth = SDPBandwidth(sdpValue: value) else { return }
            if current != nil { current?.bandwidths.append(bandwidth) } else { session.bandwidths.append(bandwidth) }
        case "m":
            guard let media = MediaDescription(mediaLine: value) else { throw .invalidLine(line: line, type: "m") }
            if let current { session.media.append(current) }
            current = media
            seenOnceOnly = []
        case "a":
            let (rawName, attributeValue) = SDPText.splitOnce(value, at: ":")
            let name = String(SDPText.trimmed(rawName))
            if current != nil {
                try readMediaAttribute(name: name, value: attributeValue, line: line)
            } else {
                try readSessionAttribute(name: name, value: attributeValue, line: line)
            }
        default:
            // i=, u=, e=, p=, z=, k=, r= and letters SDP may define later carry nothing the
            // relay uses.
            break
        }
    }

    private mutating func finish() throws(SDPParseError) -> SessionDescription {
        guard let origin else { throw .missingOrigin }
        if let current { session.media.append(current) }
        current = nil
        session.origin = origin
        return session
    }

    /// Records that a once-only attribute was seen, failing on a repeat.
    private mutating func noteOnce(_ key: String, name: String, line: Int) throws(SDPParseError) {
        guard seenOnceOnly.insert(key).inserted else { throw .duplicateAttribute(line: line, name: name) }
    }

    /// Reads the attributes allowed at both levels; returns false for any other attribute.
    private mutating func readShared(
        name: String, value: Substring?, line: Int,
        transport: inout SDPTransportAttributes, direction: inout SDPDirection?
    ) throws(SDPParseError) -> Bool {
        if let flag = SDPDirection(rawValue: name) {
            try noteOnce("direction", name: name, line: line)
            direction = flag
            return true
        }
        switch name {
        case "ice-ufrag", "ice-pwd":
            try noteOnce(name, name: name, line: line)
            let text = value.map(SDPText.trimmed) ?? ""
            guard SDPText.isToken(text) else { throw .invalidAttribute(line: line, name: name) }
            if name == "ice-ufrag" { transport.iceUsernameFragment = String(text) } else { transport.icePassword = String(text) }
        case "ice-options":
            transport.iceOptions += SDPText.fields(value ?? "").map(String.init)
        case "fingerprint":
            guard let value, let fingerprint = SDPFingerprint(sdpValue: value) else {
                throw .invalidAttribute(line: line, name: name)
            }
            transport.fingerprints.append(fingerprint)
        case "setup":
            try noteOnce(name, name: name, line: line)
            guard let value, let role = SDPSetupRole(rawValue: String(SDPText.trimmed(value))) else {
                throw .invalidAttribute(line: line, name: name)
            }
            transport.setup = role
        default:
            return false
        }
        return true
    }

    private mutating func readSessionAttribute(name: String, value: Substring?, line: Int) throws(SDPParseError) {
        var transport = session.transport
        var direction = session.direction
        let isShared = try readShared(name: name, value: value, line: line, transport: &transport, direction: &direction)
        session.transport = transport
        session.direction = direction
        if isShared { return }
        switch name {
        case "group":
            guard let value, let group = SDPGroup(sdpValue: value) else { throw .invalidAttribute(line: line, name: name) }
            session.groups.append(group)
        case "ice-lite":
            session.isICELite = true
        case "extmap-allow-mixed":
            session.allowsMixedExtensionForms = true
        case "msid-semantic":
            session.msidSemantic = value.flatMap(SDPMsidSemantic.init(sdpValue:))
        default:
            session.otherAttributes.append(SDPAttribute(name: name, value: value.map(String.init)))
        }
    }

    private mutating func readMediaAttribute(name: String, value: Substring?, line: Int) throws(SDPParseError) {
        guard var media = current else { return }
        defer { current = media }
        if try readShared(name: name, value: value, line: line, transport: &media.transport, direction: &media.direction) {
            return
        }
        let invalid = SDPParseError.invalidAttribute(line: line, name: name)
        switch name {
        case "mid":
            try noteOnce(name, name: name, line: line)
            let text = value.map(SDPText.trimmed) ?? ""
            guard SDPText.isToken(text) else { throw invalid }
            media.mid = String(text)
        case "msid":
            guard let value, let msid = SDPMsid(sdpValue: value) else { throw invalid }
            media.msids.append(msid)
        case "rtcp-mux":
            media.isRTCPMultiplexed = true
        case "rtcp-rsize":
            media.isReducedSizeRTCP = true
        case "bundle-only":
            media.isBundleOnly = true
        case "end-of-candidates":
            media.isEndOfCandidates = true
        case "candidate":
            // Remote candidates are informational for an ICE-lite relay; keep unreadable ones.
            if let value, let candidate = SDPCandidate(sdpValue: value) {
                media.candidates.append(candidate)
            } else {
                media.otherAttributes.append(SDPAttribute(name: name, value: value.map(String.init)))
            }
        case "extmap":
            guard let value, let map = SDPExtensionMap(sdpValue: value) else { throw invalid }
            media.extensionMaps.append(map)
        case "rtpmap":
            guard let value, let map = SDPRTPMap(sdpValue: value) else { throw invalid }
            guard !media.rtpMaps.contains(where: { $0.payloadType == map.payloadType }) else {
                throw .duplicateAttribute(line: line, name: name)
            }
            media.rtpMaps.append(map)
        case "fmtp":
            guard let value else { throw invalid }
            guard let parameters = SDPFormatParameters(sdpValue: value) else {
                // Non-RTP formats (old SCTP descriptions) name their format in words.
                guard media.formats.contains(where: { SDPText.payloadType(Substring($0)) == nil }) else { throw invalid }
                media.otherAttributes.append(SDPAttribute(name: name, value: String(value)))
                return
            }
            guard !media.formatParameters.contains(where: { $0.payloadType == parameters.payloadType }) else {
                throw .duplicateAttribute(line: line, name: name)
            }
            media.formatParameters.append(parameters)
        case "rtcp-fb":
            guard let value, let feedback = SDPFeedback(sdpValue: value) else { throw invalid }
            media.feedback.append(feedback)
        case "ssrc":
            guard let value, let attribute = SDPSSRCAttribute(sdpValue: value) else { throw invalid }
            media.ssrcAttributes.append(attribute)
        case "ssrc-group":
            guard let value, let group = SDPSSRCGroup(sdpValue: value) else { throw invalid }
            media.ssrcGroups.append(group)
        case "rid":
            guard let value, let rid = SDPRID(sdpValue: value) else { throw invalid }
            guard !media.rids.contains(where: { $0.id == rid.id }) else { throw .duplicateAttribute(line: line, name: name) }
            media.rids.append(rid)
        case "simulcast":
            try noteOnce(name, name: name, line: line)
            guard let value, let simulcast = SDPSimulcast(sdpValue: value) else { throw invalid }
            media.simulcast = simulcast
        default:
            media.otherAttributes.append(SDPAttribute(name: name, value: value.map(String.init)))
        }
    }
}
