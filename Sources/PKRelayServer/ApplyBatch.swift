import MediaPlane

/// What ``RelayCore/apply(_:)`` gathers while engine actions are applied: the routing changes
/// for the media plane and the WebRTC transports to offer anew, both carried out once the
/// outermost apply is through.
struct ApplyBatch {
    var depth = 0
    var media: [MediaChange] = []
    var offers: Set<Int> = []
}
