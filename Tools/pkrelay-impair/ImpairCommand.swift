import ArgumentParser
import NetworkImpairment

#if canImport(Glibc)
    import Glibc
#endif

/// `pkrelay-impair`: a UDP forwarder with a bandwidth cap, a bounded queue, delay, jitter and
/// loss between clients and a relay, changed during a run by lines on standard input. Tests in
/// other languages (the aiortc and browser tests) start it and talk to it this way.
@main
struct ImpairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pkrelay-impair",
        abstract: "Forward UDP to a relay through an impaired link (rate cap, queue, delay, jitter, loss).",
        discussion: """
            Prints {"listening":"IP:PORT"} once it forwards, then reads commands, one a line:
              uplink SETTINGS     client to target (e.g. uplink rate=1M delay=50)
              downlink SETTINGS   target to client
              both SETTINGS       both directions
              stats               one JSON line of what each direction did
              quit
            SETTINGS: rate=BITS[k|M|G] bucket=BYTES queue=BYTES|MSms|auto delay=MS jitter=MS loss=P burst=P/LENGTH reset.
            Each command is answered with one line: "ok", the statistics, or {"error":"..."}.
            """)

    @Option(help: "Where clients send: IP:PORT (port 0 picks one).")
    var listen = "127.0.0.1:0"

    @Option(help: "Where datagrams go: the relay's IP:PORT.")
    var target: String

    @Option(help: "The uplink's settings at start.")
    var uplink = ""

    @Option(help: "The downlink's settings at start.")
    var downlink = ""

    @Option(help: "Seed of the links' losses and jitter.")
    var seed: UInt64 = 1

    func run() throws {
        guard let (listenHost, listenPort) = Self.split(listen) else { throw ValidationError("--listen must be IP:PORT") }
        guard let (targetHost, targetPort) = Self.split(target) else { throw ValidationError("--target must be IP:PORT") }
        let up: LinkImpairment
        let down: LinkImpairment
        do {
            up = try LinkImpairment(parsing: uplink)
            down = try LinkImpairment(parsing: downlink)
        } catch {
            throw ValidationError("\(error)")
        }
        let relay = try ImpairmentRelay(
            listen: listenHost, listenPort: listenPort, target: targetHost, targetPort: targetPort, uplink: up, downlink: down, seed: seed)
        Self.say("{\"listening\":\"\(relay.listenAddress):\(relay.port)\"}")
        while let line = readLine() {
            let words = line.split(separator: " ", maxSplits: 1)
            guard let command = words.first else { continue }
            let settings = words.count > 1 ? String(words[1]) : ""
            switch command {
            case "quit":
                relay.stop()
                return
            case "stats":
                Self.say(relay.statistics().json)
            case "uplink", "downlink", "both":
                let directions: [ImpairmentDirection] = command == "both" ? [.uplink, .downlink] : [command == "uplink" ? .uplink : .downlink]
                do {
                    for direction in directions {
                        var impairment = relay.impairment(for: direction)
                        try impairment.apply(settings)
                        relay.set(impairment, for: direction)
                    }
                    Self.say("ok")
                } catch {
                    Self.say("{\"error\":\"\(error.description.replacingQuote())\"}")
                }
            default:
                Self.say("{\"error\":\"unknown command '\(String(command).replacingQuote())'; expected uplink, downlink, both, stats or quit\"}")
            }
        }
        relay.stop()
    }

    /// A line on standard output, flushed at once: the other side waits for it.
    static func say(_ line: String) {
        print(line)
        fflush(nil)
    }

    static func split(_ text: String) -> (String, UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        return (String(text[..<colon]), port)
    }
}
