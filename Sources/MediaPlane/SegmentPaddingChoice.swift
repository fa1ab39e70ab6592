/// How much padding a video packet gets when it is queued (`media.gsoPadding`).
enum SegmentPaddingChoice: Equatable {
    /// None.
    case none
    /// As much as makes it go on with its transport's open run, when that is allowed
    /// (``MediaCore/segmentPadding(plainLength:firstByte:on:)``).
    case toOpenRun
    /// Exactly this many bytes: a repair under its first copy's SRTP index repeats its padding.
    case exactly(Int)
}
