/// Which of a user's streams: the main (camera and microphone) stream or the screen-share stream.
public enum StreamIndex: String, Sendable, Codable, Hashable, CaseIterable {
    case main
    case screen
}
