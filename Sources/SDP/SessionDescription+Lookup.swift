extension SessionDescription {
    /// The ICE and DTLS attributes in force for `media`: its own, completed by the
    /// session-level ones.
    public func transport(of media: MediaDescription) -> SDPTransportAttributes {
        media.transport.overriding(transport)
    }

    /// The direction in force for `media`: its own, else the session's, else `sendrecv`.
    public func direction(of media: MediaDescription) -> SDPDirection {
        media.direction ?? direction ?? .sendrecv
    }

    /// The first BUNDLE group that lists `mid`.
    public func bundleGroup(containing mid: String) -> SDPGroup? {
        groups.first { $0.isBundle && $0.mids.contains(mid) }
    }

    /// The media section whose `a=mid` is `mid`.
    public func media(mid: String) -> MediaDescription? {
        media.first { $0.mid == mid }
    }
}
