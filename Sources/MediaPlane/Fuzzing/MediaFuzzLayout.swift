/// The room a ``MediaCoreFuzzRig`` sets up: one publisher with two video layers and audio, and a
/// few subscribers, each with a video and an audio sink.
@_spi(Fuzzing) public struct MediaFuzzLayout: Sendable, Hashable {
    /// One entry per subscriber (at most ``MediaCoreFuzzRig/maximumSubscribers``).
    public var subscribers: [MediaFuzzSubscriberKind]
    /// The video codec both layers announce ("VP8", "VP9", "H264", "AV1").
    public var codec: String
    /// Whether the large video layer has an RFC 4588 stream and every video sink one too.
    public var retransmission: Bool
    /// The audio level extension's identifier on the audio source, if it has one.
    public var audioLevelExtensionId: UInt8?
    /// Whether the publisher's datagrams are SRTP (AES-GCM); the rig protects what it is given.
    public var publisherUsesSRTP: Bool
    /// `media.gsoPadding`: 0 leaves packets as they are; above, the core pads video packets to
    /// their subscriber's open run of equal-size datagrams.
    public var segmentPadding: Int
    /// Whether subscribers 1, 3, ... live on a second core (another shard), fed over the link
    /// between the two as the shell's shards are.
    public var oddSubscribersOnSecondShard: Bool

    public init(
        subscribers: [MediaFuzzSubscriberKind], codec: String, retransmission: Bool, audioLevelExtensionId: UInt8?,
        publisherUsesSRTP: Bool, segmentPadding: Int, oddSubscribersOnSecondShard: Bool = false
    ) {
        self.subscribers = subscribers
        self.codec = codec
        self.retransmission = retransmission
        self.audioLevelExtensionId = audioLevelExtensionId
        self.publisherUsesSRTP = publisherUsesSRTP
        self.segmentPadding = segmentPadding
        self.oddSubscribersOnSecondShard = oddSubscribersOnSecondShard
    }
}
