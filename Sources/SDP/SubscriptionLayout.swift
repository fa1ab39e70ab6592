/// The media sections of a subscription in `m=` line order. JSEP never removes or reorders
/// sections, so the layout only grows; a section no longer used stays as an inactive slot
/// that a later track of the same kind may reuse.
public struct SubscriptionLayout: Sendable, Hashable {
    /// The slots in `m=` line order.
    public private(set) var slots: [SubscriptionSlot]

    /// Creates an empty layout, for the first offer of a subscription.
    public init() {
        self.slots = []
    }

    /// Creates a layout from slots, such as ones stored from an earlier offer.
    public init(slots: [SubscriptionSlot]) {
        self.slots = slots
    }

    /// The mids of the active slots, in order.
    public var activeMids: [String] { slots.filter(\.isActive).map(\.mid) }

    /// The layout that carries exactly `tracks`.
    ///
    /// A track whose mid has a slot goes back to it. A track with a new mid takes the first
    /// slot of its kind that was already inactive in this layout (so the client has seen it
    /// stopped), which then takes the new mid, or else a new slot at the end. Slots whose
    /// track is not in `tracks` become inactive and keep their place.
    ///
    /// - Throws: `SDPNegotiationError` when a track is invalid (see `OutgoingTrackDescription`),
    ///   mids or SSRCs repeat, a mid changes kind, or bundled tracks give one payload type
    ///   two meanings.
    public func placing(_ tracks: [OutgoingTrackDescription]) throws(SDPNegotiationError) -> SubscriptionLayout {
        var slotMids: Set<String> = []
        for slot in slots where !slotMids.insert(slot.mid).inserted { throw .duplicateMid(slot.mid) }
        var mids: Set<String> = []
        var ssrcs: Set<UInt32> = []
        for track in tracks {
            try track.validate()
            guard mids.insert(track.mid).inserted else { throw .duplicateMid(track.mid) }
            for ssrc in [track.ssrc] + (track.rtxSSRC.map { [$0] } ?? []) where !ssrcs.insert(ssrc).inserted {
                throw .duplicateSSRC(ssrc)
            }
        }
        try Self.checkPayloadTypes(of: tracks)

        var result = slots.map { SubscriptionSlot(track: $0.track, isActive: false) }
        var newTracks: [OutgoingTrackDescription] = []
        for track in tracks {
            if let index = result.firstIndex(where: { $0.mid == track.mid }) {
                guard result[index].kind == track.kind else {
                    throw .trackKindChanged(mid: track.mid, previous: result[index].kind, requested: track.kind)
                }
                result[index] = SubscriptionSlot(track: track, isActive: true)
            } else {
                newTracks.append(track)
            }
        }
        // A section keeps its mid for life (inactive sections are not stopped), so a track with
        // a new mid gets a new section; to reuse an inactive section, give the track its mid.
        for track in newTracks {
            result.append(SubscriptionSlot(track: track, isActive: true))
        }
        return SubscriptionLayout(slots: result)
    }

    /// Fails when two tracks give one payload type different codecs (BUNDLE demultiplexes
    /// by payload type only as far as they agree).
    private static func checkPayloadTypes(of tracks: [OutgoingTrackDescription]) throws(SDPNegotiationError) {
        var meaning: [UInt8: (codec: CodecDescription, mid: String)] = [:]
        for track in tracks {
            for codec in track.codecs {
                if let earlier = meaning[codec.payloadType] {
                    guard earlier.codec.hasSameConfiguration(as: codec) else {
                        throw .payloadTypeConflict(payloadType: codec.payloadType, mids: [earlier.mid, track.mid])
                    }
                } else {
                    meaning[codec.payloadType] = (codec, track.mid)
                }
            }
        }
    }
}
