/// The codec, retransmission codec and feedback the relay picked in one offered section.
struct PublishSelection: Sendable, Hashable {
    /// The chosen codec, as the client described it.
    var codec: CodecDescription
    /// The client's rtx for `codec`, if negotiated.
    var rtx: CodecDescription?
    /// The accepted feedback values.
    var feedback: [String]
}
