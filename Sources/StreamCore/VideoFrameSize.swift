/// A video frame's coded width and height in pixels, as a keyframe states them.
public struct VideoFrameSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
