import TrafficCore

/// What a simulated anchor publishes on its socket.
struct PublisherSpec: Sendable {
    /// Written into every packet's payload with the send time, so receivers know the source.
    var publisherId: UInt32
    var videoSSRC: UInt32
    var audioSSRC: UInt32
    var video: VideoProfile
    var audio: AudioProfile
}
