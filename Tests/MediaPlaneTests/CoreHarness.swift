import RTPWire
import SecureTransport
import Testing

@testable import MediaPlane

/// A media core with no sockets and a scripted clock: commands, datagrams and time go in,
/// recorded datagrams, drop counters and reports come out.
final class CoreHarness {
    let output = RecordingOutput()
    let reports = ReportStore()
    let core: MediaCore
    let events: AsyncStream<MediaPlaneEvent>
    var nowMs: Int64 = 1_000_000
    static let unixOffsetMs: Int64 = 1_700_000_000_000

    init(configuration: MediaPlaneConfiguration = MediaPlaneConfiguration(), hasWebRTCSocket: Bool = false) {
        let (stream, continuation) = AsyncStream.makeStream(of: MediaPlaneEvent.self)
        events = stream
        core = MediaCore(
            configuration: configuration, reports: reports, output: output, hasWebRTCSocket: hasWebRTCSocket, events: continuation, randomSeed: 42)
        core.advanceClock(monotonicMs: nowMs, unixMs: nowMs + Self.unixOffsetMs)
        core.startTimers()
    }

    // MARK: Time

    /// Moves the clock on and runs the core's timers, as the shell does after every wake-up.
    func advance(ms: Int64) {
        nowMs += ms
        core.advanceClock(monotonicMs: nowMs, unixMs: nowMs + Self.unixOffsetMs)
        core.runTimers()
        core.flushAll()
    }

    // MARK: Commands

    /// A plain-RTP transport (no SRTP) whose peer is `remote` (nil: learnt from the first packet).
    /// A given address is granted, as by the room server, unless `addressGranted` is false: then
    /// nothing is sent to it before a packet from it arrived.
    func addPlainTransport(_ id: Int, remote: PeerEndpoint? = nil, connected: Bool = true, addressGranted: Bool = true) {
        core.apply(.addTransport(id: id, fd: -1, port: 40_000 + id, profile: nil, outbound: nil))
        if connected { core.apply(.connectTransport(id: id, remote: remote, inbound: nil, addressGranted: addressGranted)) }
    }

    /// An SRTP transport keyed with `keys` both ways (the peer uses the mirror sessions); its
    /// address is granted unless `addressGranted` is false.
    func addSRTPTransport(
        _ id: Int, remote: PeerEndpoint?, profile: SRTPProfile = .aeadAES128GCM, relayKeys: [UInt8], peerKeys: [UInt8], addressGranted: Bool = true
    ) throws {
        let outbound = try SRTPSession(profile: profile, keyingMaterial: relayKeys, direction: .sender)
        let inbound = try SRTPSession(profile: profile, keyingMaterial: peerKeys, direction: .receiver)
        core.apply(.addTransport(id: id, fd: -1, port: 40_000 + id, profile: profile, outbound: SRTPSessionHandoff(outbound)))
        core.apply(.connectTransport(id: id, remote: remote, inbound: SRTPSessionHandoff(inbound), addressGranted: addressGranted))
    }

    func addVideoSource(_ id: UInt32, transport: Int, ssrc: UInt32, codec: String = "VP8", rtx: (ssrc: UInt32, payloadType: UInt8)? = nil) {
        var spec = MediaSourceSpec(id: id, transportId: transport, ssrc: ssrc, isVideo: true, codec: codec, clockRate: 90_000)
        if let rtx { spec.retransmission = (rtx.ssrc, rtx.payloadType, 96) }
        core.apply(.addSource(spec))
    }

    func addAudioSource(_ id: UInt32, transport: Int, ssrc: UInt32, audioLevelExtensionId: UInt8? = nil) {
        core.apply(
            .addSource(
                MediaSourceSpec(
                    id: id, transportId: transport, ssrc: ssrc, isVideo: false, codec: "opus", clockRate: 48_000, audioLevelExtensionId: audioLevelExtensionId))
        )
    }

    func addSink(_ id: UInt32, transport: Int, outputSSRC: UInt32, isVideo: Bool = true) {
        core.apply(.addSink(MediaSinkSpec(id: id, transportId: transport, outputSSRC: outputSSRC, isVideo: isVideo, clockRate: isVideo ? 90_000 : 48_000)))
    }

    func bind(sink: UInt32, source: UInt32) { core.apply(.bind(sink: sink, source: source)) }

    // MARK: Packets

    /// Hands one datagram to the core as the shell would after `recvmmsg`, then flushes.
    func receive(_ bytes: [UInt8], on transport: Int, from endpoint: PeerEndpoint) {
        guard let state = core.transports[transport] else {
            Issue.record("no transport \(transport)")
            return
        }
        var buffer = bytes
        buffer.append(contentsOf: [UInt8](repeating: 0, count: 64))
        buffer.withUnsafeMutableBytes { raw in
            core.handleDatagram(on: state, buffer: raw.baseAddress!, length: bytes.count, from: endpoint)
        }
        core.flushAll()
    }

    /// Datagrams sent on a transport since `mark`.
    func sent(on transport: Int, since mark: Int = 0) -> [[UInt8]] {
        output.datagrams[mark...].filter { $0.transportId == transport }.map(\.bytes)
    }

    /// The RTP headers sent on a transport since `mark` (RTCP left out).
    func rtpSent(on transport: Int, since mark: Int = 0) -> [RTPHeader] {
        sent(on: transport, since: mark).filter { $0.count > 1 && !(192...223).contains($0[1]) }.compactMap(ScriptedPacket.header(of:))
    }

    /// The RTCP packets sent on a transport since `mark`, by packet type.
    func rtcpTypes(on transport: Int, since mark: Int = 0) -> [UInt8] {
        sent(on: transport, since: mark).filter { $0.count > 1 && (192...223).contains($0[1]) }.map { $0[1] }
    }

    var mark: Int { output.datagrams.count }

    func drops(_ reason: DropReason) -> UInt64 { core.counters.drops(reason) }
}
