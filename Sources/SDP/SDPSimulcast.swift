/// An `a=simulcast` attribute (RFC 8853), such as `send h;m;l` or `recv 1,2;~3`.
///
/// Each direction holds a list of simulcast streams (separated by `;` in SDP); each stream is
/// a list of alternative rids (separated by `,`), of which the sender uses one.
public struct SDPSimulcast: Sendable, Hashable {
    /// The streams the writer sends.
    public var send: [[SDPSimulcastStream]]
    /// The streams the writer receives.
    public var receive: [[SDPSimulcastStream]]

    /// Creates the attribute.
    public init(send: [[SDPSimulcastStream]] = [], receive: [[SDPSimulcastStream]] = []) {
        self.send = send
        self.receive = receive
    }

    static let expectedForm = "'send|recv <rid>[,<alternative>][;<rid>...] [recv|send ...]' such as 'send h;m;l'"

    /// Parses the value of an `a=simulcast` attribute. The `rid=` prefix of the draft
    /// syntax older browsers wrote is accepted.
    init?(sdpValue: Substring) {
        let fields = SDPText.fields(sdpValue)
        guard fields.count == 2 || fields.count == 4 else { return nil }
        var send: [[SDPSimulcastStream]]?
        var receive: [[SDPSimulcastStream]]?
        var index = 0
        while index + 1 < fields.count {
            guard let streams = Self.streamList(fields[index + 1]) else { return nil }
            switch fields[index] {
            case "send" where send == nil: send = streams
            case "recv" where receive == nil: receive = streams
            default: return nil
            }
            index += 2
        }
        self.init(send: send ?? [], receive: receive ?? [])
    }

    /// Parses `h;m,m2;~l` into streams of alternatives; nil when an entry is not a valid rid.
    private static func streamList(_ text: Substring) -> [[SDPSimulcastStream]]? {
        var list = text
        if SDPText.hasPrefix(list, "rid=") { list = SDPText.droppingASCII(4, from: list) }
        var streams: [[SDPSimulcastStream]] = []
        for stream in SDPText.split(list, at: ";", omittingEmptySubsequences: false) {
            var alternatives: [SDPSimulcastStream] = []
            for entry in SDPText.split(stream, at: ",", omittingEmptySubsequences: false) {
                let isPaused = SDPText.hasPrefix(entry, "~")
                let rid = isPaused ? SDPText.droppingASCII(1, from: entry) : entry
                guard SDPRID.isValidIdentifier(rid) else { return nil }
                alternatives.append(SDPSimulcastStream(rid: String(rid), isPaused: isPaused))
            }
            streams.append(alternatives)
        }
        return streams
    }

    private static func listValue(_ streams: [[SDPSimulcastStream]]) -> String {
        streams.map { $0.map(\.sdpValue).joined(separator: ",") }.joined(separator: ";")
    }

    /// The value written after `a=simulcast:`.
    var sdpValue: String {
        var parts: [String] = []
        if !send.isEmpty { parts.append("send \(Self.listValue(send))") }
        if !receive.isEmpty { parts.append("recv \(Self.listValue(receive))") }
        return parts.joined(separator: " ")
    }
}
