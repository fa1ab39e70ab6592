import ArgumentParser
import CSocketShims
import Foundation
import PKRelayClient
import Protocol
import SecureTransport

/// `pkrelay-client watch`: joins invisibly as audience, subscribes to a publisher's main stream on
/// two SRTP transports aimed at local ports, writes the SDP a player needs, and runs ffplay (or
/// ffmpeg writing decoded-frame checksums).
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "watch", abstract: "Watch a user's stream with ffplay, or count its frames with ffmpeg.")

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The user to watch.")
    var publisher: String

    @Option(help: "Write the SDP here.")
    var sdp: String = "pkrelay-watch.sdp"

    @Option(help: "Instead of playing, decode with ffmpeg and write per-frame checksums (framecrc) to this file.")
    var framecrc: String?

    @Option(help: "Stop after this many seconds (0: until the player exits or Ctrl-C).")
    var seconds: Int = 0

    func run() async throws {
        let (client, _) = try await ControlClient.connectAndJoin(
            to: connection.relay, JoinRoomParams(token: connection.token, roomId: connection.room, userId: connection.user, role: .audience, visible: false))
        let profile = SRTPProfile.aesCM128HMACSHA1_80
        let videoTransport: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
        let audioTransport: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
        let subscribed: SubscribeStreamResult = try await client.request(
            "subscribeStream",
            SubscribeStreamParams(
                roomId: connection.room, userId: publisher, streamIndex: .main, mediaType: MediaType.audioAndVideo,
                transportId: videoTransport.transportId, audioTransportId: audioTransport.transportId, videoTransportId: videoTransport.transportId))
        let videoPort = try Self.freeEvenPort()
        let audioPort = try Self.freeEvenPort(excluding: videoPort)
        var lines = ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=PKRelay \(connection.room)/\(publisher)", "c=IN IP4 127.0.0.1", "t=0 0"]
        for track in subscribed.tracks {
            let (port, key) = track.kind == .video ? (videoPort, videoTransport.srtp?.key ?? "") : (audioPort, audioTransport.srtp?.key ?? "")
            let channels = track.kind == .audio ? "/\(track.channels ?? 2)" : ""
            lines += [
                "m=\(track.kind.rawValue) \(port) RTP/SAVP \(track.payloadType)",
                "a=rtpmap:\(track.payloadType) \(track.codec)/\(track.clockRate)\(channels)",
                "a=crypto:1 \(profile.rawValue) inline:\(key)",
            ]
        }
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: sdp, atomically: true, encoding: .utf8)
        var arguments: [String]
        let player: String
        if let framecrc {
            player = "ffmpeg"
            arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-protocol_whitelist", "file,udp,rtp,srtp", "-reorder_queue_size", "0", "-i", sdp]
            if seconds > 0 { arguments += ["-t", "\(seconds)"] }
            arguments += ["-f", "framecrc", "-y", framecrc]
        } else {
            player = "ffplay"
            arguments = ["-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file,udp,rtp,srtp", "-i", sdp]
            if seconds > 0 { arguments += ["-autoexit", "-t", "\(seconds)"] }
        }
        // The relay sends to an address only once a packet from it has authenticated, and the
        // player sends the relay nothing: each port proves itself before the player takes it.
        var videoKey: [UInt8] = []
        for (transport, port) in [(videoTransport, videoPort), (audioTransport, audioPort)] {
            let endpoint = try MediaEndpoint(transport: transport, localPort: port)
            let _: EmptyResult = try await client.request("connectTransport", endpoint.connectParams())
            try endpoint.proveAddress()
            endpoint.close()
            if transport.transportId == videoTransport.transportId { videoKey = endpoint.localKey }
        }
        let process = try FFmpegProcess(executable: player, arguments: arguments)
        try process.start()
        try await Task.sleep(for: .milliseconds(500))  // let the player bind its ports first
        // A keyframe that went out before the player listened is lost: ask for a fresh one, from
        // another port (the relay takes authenticated RTCP from a second address) under another
        // SSRC, so the key's SRTCP indices never repeat for one SSRC.
        if let video = subscribed.tracks.first(where: { $0.kind == .video }) {
            let asker = try MediaEndpoint(transport: videoTransport, sendingKey: videoKey)
            try asker.sendPictureLossIndication(senderSSRC: 0x5EED_0B0E, mediaSSRC: video.ssrc)
            asker.close()
        }
        print("watching '\(publisher)' in room '\(connection.room)' with \(player) (SDP: \(sdp)); Ctrl-C to stop")
        let stopper = SignalStopper { process.stop() }
        let deadline =
            seconds > 0
            ? Task {
                try? await Task.sleep(for: .seconds(seconds + 3))
                process.stop()
            } : nil
        _ = await process.wait()
        deadline?.cancel()
        stopper.cancel()
        let _: EmptyResult? = try? await client.request("leaveRoom", RoomParams(roomId: connection.room))
        await client.close()
    }

    /// An even UDP port free right now (players use port+1 for RTCP).
    static func freeEvenPort(excluding other: Int = -1) throws -> Int {
        for _ in 0..<64 {
            let fd = pkr_udp_open(0x7F00_0001, 0, 0, 0)
            guard fd >= 0 else { continue }
            let port = Int(pkr_udp_local_port(fd))
            _ = pkr_close(fd)
            let even = port & ~1
            if even != other, even != other + 1, even > 1024 { return even }
        }
        throw ToolError("no free local UDP port")
    }
}
