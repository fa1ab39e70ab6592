import TrafficCore

/// What a simulated anchor publishes on its socket.
struct PublisherSpec: Sendable {
    /// Written into every packet's payload with the send time, so receivers know the source.
    var publisherId: UInt32
    var videoSSRC: UInt32
    var audioSSRC: UInt32
    var video: VideoProfile
    var audio: AudioProfile
    /// The rate a paced publisher's video leaves at, bits per second; 0 sends each frame as one
    /// burst, as ffmpeg does.
    var pacingBps: Int = 0
}
