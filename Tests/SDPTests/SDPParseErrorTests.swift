import SDP
import Testing

/// One malformed description and the error it must give.
struct ParseErrorCase: Sendable, CustomStringConvertible {
    var name: String
    var text: String
    var expected: SDPParseError
    var description: String { name }

    /// A case whose text is the small test video section with `attributes`; the first
    /// attribute is on line 7.
    static func attribute(_ name: String, _ attributes: [String], _ expected: SDPParseError) -> ParseErrorCase {
        ParseErrorCase(name: name, text: SDPTestText.video(attributes), expected: expected)
    }
}

@Suite("Parse errors")
struct SDPParseErrorTests {
    static let session = SDPTestText.sessionLines.joined(separator: "\n")

    static let cases: [ParseErrorCase] = [
        ParseErrorCase(name: "empty", text: "", expected: .empty),
        ParseErrorCase(name: "blank lines only", text: " \r\n\n\t\n", expected: .empty),
        ParseErrorCase(name: "origin first", text: "o=- 1 1 IN IP4 0.0.0.0\nv=0", expected: .missingVersion(line: 1)),
        ParseErrorCase(name: "version 1", text: "\nv=1\n", expected: .unsupportedVersion(line: 2)),
        ParseErrorCase(name: "not type=value", text: "v=0\nhello world", expected: .malformedLine(line: 2)),
        ParseErrorCase(name: "uppercase type", text: "v=0\nO=- 1 1 IN IP4 0.0.0.0", expected: .malformedLine(line: 2)),
        ParseErrorCase(name: "no origin", text: "v=0\ns=-\nt=0 0", expected: .missingOrigin),
        ParseErrorCase(
            name: "carriage return inside a line", text: session + "\r\nm=video 9 UDP/TLS/RTP/SAVPF 120\r 121\r\n", expected: .forbiddenCharacter(line: 5)),
        ParseErrorCase(name: "NUL inside a line", text: session + "\ns=a\u{0}b", expected: .forbiddenCharacter(line: 5)),
        ParseErrorCase(name: "origin id not a number", text: "v=0\n\no=- abc 1 IN IP4 0.0.0.0", expected: .invalidLine(line: 3, type: "o")),
        ParseErrorCase(name: "origin too short", text: "v=0\no=- 1 1 IN IP4", expected: .invalidLine(line: 2, type: "o")),
        ParseErrorCase(name: "two origins", text: session + "\no=- 2 2 IN IP4 0.0.0.0", expected: .duplicateLine(line: 5, type: "o")),
        ParseErrorCase(name: "second version", text: session + "\nv=0", expected: .duplicateLine(line: 5, type: "v")),
        ParseErrorCase(name: "m= without formats", text: session + "\nm=audio 9 UDP/TLS/RTP/SAVPF", expected: .invalidLine(line: 5, type: "m")),
        ParseErrorCase(name: "m= port too large", text: session + "\nm=audio 70000 RTP/AVP 0", expected: .invalidLine(line: 5, type: "m")),
        ParseErrorCase(name: "m= port count 0", text: session + "\nm=audio 9/0 RTP/AVP 0", expected: .invalidLine(line: 5, type: "m")),
        ParseErrorCase(
            name: "origin in a section", text: session + "\nm=audio 9 RTP/AVP 0\no=- 1 1 IN IP4 0.0.0.0", expected: .lineOutOfPlace(line: 6, type: "o")),
        ParseErrorCase(name: "bad group", text: session + "\na=group:", expected: .invalidAttribute(line: 5, name: "group")),
        ParseErrorCase(name: "session setup twice", text: session + "\na=setup:actpass\na=setup:active", expected: .duplicateAttribute(line: 6, name: "setup")),
        .attribute("rtpmap without clock", ["a=rtpmap:96 VP8"], .invalidAttribute(line: 7, name: "rtpmap")),
        .attribute("rtpmap payload type 128", ["a=rtpmap:128 VP8/90000"], .invalidAttribute(line: 7, name: "rtpmap")),
        .attribute("rtpmap zero channels", ["a=rtpmap:111 opus/48000/0"], .invalidAttribute(line: 7, name: "rtpmap")),
        .attribute("rtpmap twice", ["a=rtpmap:96 VP8/90000", "a=rtpmap:96 VP9/90000"], .duplicateAttribute(line: 8, name: "rtpmap")),
        .attribute("fmtp twice", ["a=fmtp:97 apt=96", "a=fmtp:97 apt=98"], .duplicateAttribute(line: 8, name: "fmtp")),
        .attribute("fmtp for a word", ["a=fmtp:abc x=1"], .invalidAttribute(line: 7, name: "fmtp")),
        .attribute("mid twice", ["a=mid:0", "a=mid:1"], .duplicateAttribute(line: 8, name: "mid")),
        .attribute("empty mid", ["a=mid:"], .invalidAttribute(line: 7, name: "mid")),
        .attribute("two directions", ["a=sendrecv", "a=recvonly"], .duplicateAttribute(line: 8, name: "recvonly")),
        .attribute("unknown setup", ["a=setup:client"], .invalidAttribute(line: 7, name: "setup")),
        .attribute("short fingerprint", ["a=fingerprint:sha-256 AB:CD"], .invalidAttribute(line: 7, name: "fingerprint")),
        .attribute(
            "fingerprint not hex", ["a=fingerprint:sha-1 " + Array(repeating: "ZZ", count: 20).joined(separator: ":")],
            .invalidAttribute(line: 7, name: "fingerprint")),
        .attribute("fingerprint without hash", ["a=fingerprint:sha-256"], .invalidAttribute(line: 7, name: "fingerprint")),
        .attribute("empty ice-ufrag", ["a=ice-ufrag:"], .invalidAttribute(line: 7, name: "ice-ufrag")),
        .attribute("ice-pwd without value", ["a=ice-pwd"], .invalidAttribute(line: 7, name: "ice-pwd")),
        .attribute("extmap id 0", ["a=extmap:0 urn:example"], .invalidAttribute(line: 7, name: "extmap")),
        .attribute("extmap id 256", ["a=extmap:256 urn:example"], .invalidAttribute(line: 7, name: "extmap")),
        .attribute("extmap bad direction", ["a=extmap:1/sideways urn:example"], .invalidAttribute(line: 7, name: "extmap")),
        .attribute("extmap without URI", ["a=extmap:1"], .invalidAttribute(line: 7, name: "extmap")),
        .attribute("ssrc not a number", ["a=ssrc:abc cname:x"], .invalidAttribute(line: 7, name: "ssrc")),
        .attribute("ssrc too large", ["a=ssrc:4294967296 cname:x"], .invalidAttribute(line: 7, name: "ssrc")),
        .attribute("ssrc without attribute", ["a=ssrc:42"], .invalidAttribute(line: 7, name: "ssrc")),
        .attribute("ssrc-group bad member", ["a=ssrc-group:FID 1 x"], .invalidAttribute(line: 7, name: "ssrc-group")),
        .attribute("rid bad direction", ["a=rid:h sideways"], .invalidAttribute(line: 7, name: "rid")),
        .attribute("rid bad identifier", ["a=rid:h@1 send"], .invalidAttribute(line: 7, name: "rid")),
        .attribute("rid bad payload type", ["a=rid:h send pt=96,300"], .invalidAttribute(line: 7, name: "rid")),
        .attribute("rid twice", ["a=rid:h send", "a=rid:h send"], .duplicateAttribute(line: 8, name: "rid")),
        .attribute("simulcast without list", ["a=simulcast:send"], .invalidAttribute(line: 7, name: "simulcast")),
        .attribute("simulcast unknown direction", ["a=simulcast:both h"], .invalidAttribute(line: 7, name: "simulcast")),
        .attribute("simulcast empty stream", ["a=simulcast:send h;;m"], .invalidAttribute(line: 7, name: "simulcast")),
        .attribute("simulcast send twice", ["a=simulcast:send h send m"], .invalidAttribute(line: 7, name: "simulcast")),
        .attribute("rtcp-fb bad payload type", ["a=rtcp-fb:x nack"], .invalidAttribute(line: 7, name: "rtcp-fb")),
        .attribute("rtcp-fb without type", ["a=rtcp-fb:96"], .invalidAttribute(line: 7, name: "rtcp-fb")),
        .attribute("empty msid", ["a=msid:"], .invalidAttribute(line: 7, name: "msid")),
    ]

    @Test("malformed descriptions give the exact error", arguments: cases)
    func malformed(_ testCase: ParseErrorCase) {
        #expect(throws: testCase.expected) { try SessionDescription(parsing: testCase.text) }
    }

    @Test("messages name the line and what was expected")
    func messages() {
        #expect(
            SDPParseError.invalidAttribute(line: 12, name: "rtpmap").description
                == "line 12: 'a=rtpmap' is malformed; expected '<payload type 0-127> <encoding name>/<clock rate>[/<channels>]'")
        #expect(SDPParseError.invalidLine(line: 2, type: "o").description.hasPrefix("line 2: 'o=' line is malformed; expected '<username>"))
        #expect(SDPParseError.missingVersion(line: 1).description == "line 1: a session description must start with 'v=0'")
    }
}
