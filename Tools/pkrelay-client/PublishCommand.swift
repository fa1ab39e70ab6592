import ArgumentParser
import Foundation
import PKRelayClient
import Protocol
import SecureTransport

/// `pkrelay-client publish`: joins as an anchor, opens two SRTP transports (ffmpeg sends each
/// stream from its own socket), declares VP8 video and Opus audio, and runs ffmpeg to send them.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "publish", abstract: "Publish a test pattern (or a file) with ffmpeg.")

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "An input for ffmpeg (a file path); default a test pattern and a 440 Hz tone.")
    var input: String?

    @Option(help: "Stop after this many seconds (0: until Ctrl-C).")
    var seconds: Int = 0

    @Option(help: "Start a two-way PK link with this anchor (also give --pk-room) once it is in its room.")
    var pkUser: String?

    @Option(help: "The room of the --pk-user anchor.")
    var pkRoom: String?

    @Option(help: "Forward this stream into another room (one-way); give --forward-token too.")
    var forwardRoom: String?

    @Option(help: "A token for --forward-room and this same user (`pkrelay token --room OTHER --user ME`).")
    var forwardToken: String?

    func validate() throws {
        if (pkUser == nil) != (pkRoom == nil) { throw ValidationError("--pk-user and --pk-room go together") }
        if (forwardRoom == nil) != (forwardToken == nil) { throw ValidationError("--forward-room and --forward-token go together") }
    }

    /// Tries connectOtherRoom every second for a minute, until the peer anchor is there.
    static func link(client: ControlClient, room: String, peerRoom: String, peerUser: String) async {
        for _ in 0..<60 {
            do {
                let _: ConnectOtherRoomEvent = try await client.request(
                    "connectOtherRoom", ConnectOtherRoomParams(roomId: peerRoom, userId: peerUser, localRoomId: room))
                print("PK link up with '\(peerUser)' in room '\(peerRoom)'")
                return
            } catch {
                try? await Task.sleep(for: .seconds(1))
            }
        }
        print("could not link with '\(peerUser)' in room '\(peerRoom)' within a minute")
    }

    func run() async throws {
        // In a cluster the room may live on another node: the join follows the redirect there.
        let (client, _) = try await ControlClient.connectAndJoin(
            to: connection.relay, JoinRoomParams(token: connection.token, roomId: connection.room, userId: connection.user, role: .anchor))
        let profile = SRTPProfile.aesCM128HMACSHA1_80  // the suite ffmpeg's SDES supports
        var endpoints: [(transport: CreateTransportResult, key: [UInt8])] = []
        for _ in 0..<2 {
            let transport: CreateTransportResult = try await client.request("createTransport", CreateTransportParams(srtpProfile: profile.rawValue))
            let key = SDESKeying.generateKeyingMaterial(for: profile)
            let _: EmptyResult = try await client.request(
                "connectTransport", ConnectTransportParams(transportId: transport.transportId, srtpKey: SDESKeying.encodeBase64(key)))
            endpoints.append((transport, key))
        }
        let videoSSRC = UInt32.random(in: 1...UInt32.max)
        let audioSSRC = UInt32.random(in: 1...UInt32.max)
        let video = endpoints[0]
        let audio = endpoints[1]
        let _: PublishStreamResult = try await client.request(
            "publishStream",
            PublishStreamParams(
                roomId: connection.room, streamIndex: .main, transportId: video.transport.transportId,
                tracks: [
                    TrackDescription(kind: .video, ssrc: videoSSRC, payloadType: 96, codec: "VP8", clockRate: 90000),
                    TrackDescription(
                        kind: .audio, ssrc: audioSSRC, payloadType: 111, codec: "opus", clockRate: 48000, channels: 2,
                        transportId: audio.transport.transportId),
                ]))
        var arguments = ["-hide_banner", "-loglevel", "error", "-re", "-sdp_file", "/dev/null"]
        if let input {
            arguments += ["-stream_loop", "-1", "-i", input, "-map", "0:v:0"]
        } else {
            arguments += ["-f", "lavfi", "-i", "testsrc=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-map", "0:v"]
        }
        if seconds > 0 { arguments += ["-t", "\(seconds)"] }
        arguments += [
            "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "800k", "-g", "60", "-auto-alt-ref", "0",
            "-payload_type", "96", "-ssrc", "\(Int32(bitPattern: videoSSRC))", "-f", "rtp",
            "-srtp_out_suite", profile.rawValue, "-srtp_out_params", SDESKeying.encodeBase64(video.key),
            "srtp://\(video.transport.ip):\(video.transport.port)?rtcpport=\(video.transport.port)",
        ]
        arguments += input == nil ? ["-map", "1:a"] : ["-map", "0:a:0?"]
        if seconds > 0 { arguments += ["-t", "\(seconds)"] }
        arguments += [
            "-c:a", "libopus", "-b:a", "48k", "-payload_type", "111", "-ssrc", "\(Int32(bitPattern: audioSSRC))", "-f", "rtp",
            "-srtp_out_suite", profile.rawValue, "-srtp_out_params", SDESKeying.encodeBase64(audio.key),
            "srtp://\(audio.transport.ip):\(audio.transport.port)?rtcpport=\(audio.transport.port)",
        ]
        let ffmpeg = try FFmpegProcess(executable: "ffmpeg", arguments: arguments)
        try ffmpeg.start()
        print("publishing '\(connection.user)' in room '\(connection.room)' (video SSRC \(videoSSRC), audio SSRC \(audioSSRC)); Ctrl-C to stop")
        let stopper = SignalStopper { ffmpeg.stop() }
        if let forwardRoom, let forwardToken {
            let result: ForwardStreamResult = try await client.request(
                "startForwardStreamToRooms",
                StartForwardParams(
                    roomId: connection.room, targets: [ForwardTargetParams(roomId: forwardRoom, token: forwardToken)]))
            for info in result.infos {
                print("forward to '\(info.roomId)': " + (info.state == 1 ? "running" : "failed \(info.error) \(info.message ?? "")"))
            }
        }
        if let pkUser, let pkRoom {
            Task { await Self.link(client: client, room: connection.room, peerRoom: pkRoom, peerUser: pkUser) }
        }
        let status = await ffmpeg.wait()
        stopper.cancel()
        let _: EmptyResult? = try? await client.request("leaveRoom", RoomParams(roomId: connection.room))
        await client.close()
        if status != 0 && status != 255 { throw ToolError("ffmpeg exited with status \(status)") }
    }
}
