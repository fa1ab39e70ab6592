/// How the anchors of a room pair see each other.
public enum PKMode: String, Sendable, Codable, CaseIterable {
    /// `connectOtherRoom`: a two-way link made by one call.
    case link
    /// `startForwardStreamToRooms`: each anchor forwards its stream into the other room.
    case forward
}
