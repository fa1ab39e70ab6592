/// The decoders of outside input that PKRelay fuzzes, one case per fuzzing entry point.
///
/// The libFuzzer executable (`make fuzz`) runs one case per process; `FuzzReplayTests` runs the
/// committed corpus and regression inputs of every case through the same code. Each case takes
/// arbitrary bytes, must return for any of them, and traps (with `precondition`) when a check
/// that holds for every input fails, such as a writer's output not parsing back to what was
/// written.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// RTP headers, header extension elements, the header writers, RTX unwrapping.
    case rtp
    /// Compound RTCP, every report and feedback parser, the RTCP writers.
    case rtcp
    /// STUN messages with MESSAGE-INTEGRITY and FINGERPRINT, and the ICE-lite agent answering them.
    case stun
    /// The SDP parser and writer, and the WebRTC offer/answer negotiations the relay does.
    case sdp
    /// Datagram classification and the DTLS record screening in front of OpenSSL.
    case dtls
    /// Keyframe detection for VP8, VP9, H.264 and AV1, and the VP8 descriptor rewriter.
    case codecs
    /// Room tokens: raw text, and correctly signed tokens over arbitrary claims.
    case token
    /// The YAML configuration with environment overrides.
    case config
    /// The control channel end to end: scripted sessions, frames and time into the relay core.
    case control
    /// AES-GCM SRTP on OpenSSL against libsrtp: scripted packets protected and delivered
    /// (duplicated, late, altered, truncated, foreign) must get libsrtp's status and bytes.
    case srtp
    /// The media core's per-packet path in one room: publisher datagrams, subscriber feedback,
    /// control-plane changes and time, read in batches as the shell reads them and datagram by
    /// datagram; both must send every peer the same.
    case media
    /// The `media` script with subscribers 1 and 3 on a second shard, fed over the link between
    /// the two cores as the shell's shards are.
    case shards
    /// ICE-TCP's RFC 4571 framing on a real socket pair against a model: frames cut into any
    /// pieces come out whole, overlong ones passed over, and what is queued arrives whole.
    case stream

    /// Runs one input. Returns for every input unless a bug is found; the control case blocks
    /// until the relay core has handled the whole script, so call it outside Swift concurrency
    /// (as libFuzzer does) or use ``replay(_:)`` from async code.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .rtp: Self.runRTP(bytes)
        case .rtcp: Self.runRTCP(bytes)
        case .stun: Self.runSTUN(bytes)
        case .sdp: Self.runSDP(bytes)
        case .dtls: Self.runDTLS(bytes)
        case .codecs: Self.runCodecs(bytes)
        case .token: Self.runToken(bytes)
        case .config: Self.runConfig(bytes)
        case .control: ControlFuzzRelay.shared.runBlocking(ControlFuzzScript(bytes))
        case .srtp: Self.runSRTP(bytes)
        case .media: Self.runMedia(bytes)
        case .shards: Self.runMedia(bytes, secondShard: true)
        case .stream: Self.runStream(bytes)
        }
    }

    /// Runs one input from async code, without blocking a thread of the concurrency pool.
    public func replay(_ bytes: [UInt8]) async {
        if self == .control {
            let script = bytes.withUnsafeBytes { ControlFuzzScript($0) }
            await ControlFuzzRelay.shared.run(script)
        } else {
            bytes.withUnsafeBytes { run($0) }
        }
    }
}
