public import Protocol

/// An event pushed by the relay: its wire name, the decoded event (nil when this client does
/// not know the event) and the raw text.
public struct ReceivedEvent: Sendable, Hashable {
    /// The `event` field, e.g. `onUserPublishStream`.
    public var name: String
    /// The decoded event, when its name and data are known.
    public var event: ServerEvent?
    /// The raw JSON text.
    public var text: String

    /// Creates an event record.
    public init(name: String, event: ServerEvent?, text: String) {
        self.name = name
        self.event = event
        self.text = text
    }
}
