/// Why a session description could not be read. Line numbers count every line of the text
/// from 1, blank ones included, so they match what an editor shows.
public enum SDPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text holds no lines.
    case empty
    /// The first line is not a `v=` line.
    case missingVersion(line: Int)
    /// The `v=` line names a version other than 0.
    case unsupportedVersion(line: Int)
    /// The line is not `<letter>=<value>`.
    case malformedLine(line: Int)
    /// A carriage return or NUL byte inside a line, which SDP's text cannot hold (RFC 8866
    /// section 9); a carriage return is allowed only right before the line feed.
    case forbiddenCharacter(line: Int)
    /// A session-level line (`v=`, `o=`, `s=`, `t=`) appears inside a media section.
    case lineOutOfPlace(line: Int, type: String)
    /// A line that may appear once (`o=`, `s=`) appears again.
    case duplicateLine(line: Int, type: String)
    /// The description has no `o=` line.
    case missingOrigin
    /// An `o=` or `m=` line does not have the form it must have.
    case invalidLine(line: Int, type: String)
    /// An attribute the relay reads has a value it cannot read.
    case invalidAttribute(line: Int, name: String)
    /// An attribute that may appear once per section (or once per payload type) appears again.
    case duplicateAttribute(line: Int, name: String)

    /// A message for app developers naming the line and what was expected there.
    public var description: String {
        switch self {
        case .empty:
            "the session description is empty"
        case .missingVersion(let line):
            "line \(line): a session description must start with 'v=0'"
        case .unsupportedVersion(let line):
            "line \(line): only SDP version 0 exists; expected 'v=0'"
        case .malformedLine(let line):
            "line \(line): expected '<type letter>=<value>'"
        case .forbiddenCharacter(let line):
            "line \(line): a carriage return or NUL byte inside the line; lines end with CRLF or LF"
        case .lineOutOfPlace(let line, let type):
            "line \(line): '\(type)=' belongs to the session part, before the first 'm=' line"
        case .duplicateLine(let line, let type):
            "line \(line): '\(type)=' may appear only once"
        case .missingOrigin:
            "the session description has no 'o=' line; expected 'o=- <session id> <version> IN IP4 <address>'"
        case .invalidLine(let line, let type):
            "line \(line): '\(type)=' line is malformed; expected \(Self.expectedLine(type))"
        case .invalidAttribute(let line, let name):
            "line \(line): 'a=\(name)' is malformed; expected \(Self.expectedAttribute(name))"
        case .duplicateAttribute(let line, let name):
            "line \(line): 'a=\(name)' appears more than once for the same section or payload type"
        }
    }

    private static func expectedLine(_ type: String) -> String {
        switch type {
        case "o": SDPOrigin.expectedForm
        case "m": MediaDescription.expectedForm
        default: "a valid value"
        }
    }

    private static func expectedAttribute(_ name: String) -> String {
        switch name {
        case "group": SDPGroup.expectedForm
        case "fingerprint": SDPFingerprint.expectedForm
        case "setup": "one of 'actpass', 'active', 'passive', 'holdconn'"
        case "mid": "a non-empty identifier without spaces"
        case "ice-ufrag", "ice-pwd": "a non-empty value without spaces"
        case "msid": SDPMsid.expectedForm
        case "rtpmap": SDPRTPMap.expectedForm
        case "fmtp": SDPFormatParameters.expectedForm
        case "rtcp-fb": SDPFeedback.expectedForm
        case "extmap": SDPExtensionMap.expectedForm
        case "ssrc": SDPSSRCAttribute.expectedForm
        case "ssrc-group": SDPSSRCGroup.expectedForm
        case "rid": SDPRID.expectedForm
        case "simulcast": SDPSimulcast.expectedForm
        case "sendrecv", "sendonly", "recvonly", "inactive", "rtcp-mux", "rtcp-rsize", "ice-lite",
            "extmap-allow-mixed", "end-of-candidates", "bundle-only":
            "the flag without a value"
        default: "a valid value"
        }
    }
}
