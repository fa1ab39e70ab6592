/// The media-type bitmask used in stream events: audio 1, video 2, both 3 (Volcengine's values).
public enum MediaType {
    public static let audio = 1
    public static let video = 2
    public static let audioAndVideo = 3
}
