import Protocol

/// Where a published track lives, to find its publication from a media-plane report.
struct SourceLocation: Sendable, Hashable {
    var roomId: String
    var userId: String
    var streamIndex: StreamIndex
}
