import Auth
import Cluster
import Foundation
import Logging
import MediaPlane
import Protocol
import RoomEngine
import SDP

/// WHEP playback: a player that speaks HTTP offers to receive one publisher's audio and video.
/// The relay joins the room as the token's user (invisible audience) on a session of its own,
/// subscribes it to the publisher on a WebRTC transport whose SDP is the player's (its mids,
/// its payload types), and answers. The session ends when the player deletes it, and when the
/// publisher leaves the room (a new publisher session would need a new offer).
extension RelayCore {
    /// POST to `/whep/{publisher}`: plays `publisher`'s main stream in the token's room.
    func whepPlay(token: String, publisher: String, offer: String) async -> HTTPMediaAnswer {
        let claims: TokenClaims
        switch verifier.verify(token, nowSeconds: nowMs() / 1000) {
        case .failure(let error): return .refused(status: 401, message: error.message)
        case .success(let verified): claims = verified
        }
        guard let roomId = claims.room else {
            return .refused(status: 403, message: "the token names no room; WHEP plays a publisher of the room its token names")
        }
        guard RelayIdentifier.isValid(publisher) else { return .refused(status: 404, message: "'\(publisher.prefix(40))' is not a user id") }
        guard accepting else { return .refused(status: 503, message: "the relay is shutting down; play from another relay") }
        let player: PlayerOffer
        do {
            player = try negotiator.readPlayerOffer(offer)
        } catch {
            return .refused(status: 400, message: "the SDP offer cannot be used: \(error)")
        }
        switch await directory.route(roomId: roomId) {
        case .local: break
        case .elsewhere(let placement):
            directory.redirected()
            return .redirect(location: Self.whipURL(controlURL: placement.node.controlURL, path: "whep/\(publisher)"))
        case .unavailable(let reason): return .refused(status: 503, message: reason)
        }
        let (session, stream) = connect()
        drainEvents(of: session, stream, publisher: publisher)
        let join = join(JoinRoomParams(token: token, roomId: roomId, userId: claims.sub, role: .audience, visible: false), session: session)
        apply(join.actions)
        if case .failure(let error) = join.result { return refuse(session, error) }
        let created = createWebRTCTransport(
            session: session, audioLevelExtensionId: player.sections.first { $0.kind == .audio }?.audioLevelExtensionId ?? 0, receiving: true,
            receiveOnly: true)
        apply(created.actions)
        let transportId: Int
        let iceServers: [ICEServer]
        switch created.result {
        case .failure(let error): return refuse(session, error)
        case .success(let transport): (transportId, iceServers) = (transport.transportId, transport.iceServers ?? [])
        }
        guard let dtlsContext, let relay = webRTC[transportId].flatMap(relayDescription(of:)) else {
            return refuse(session, RelayError(.unsupported, "WebRTC is off on this relay"))
        }
        engine.adoptPlayerLayout(transportId: transportId, layout: Self.layout(of: player))
        if let id = player.transportWideSequenceExtensionId {
            media.setCongestionControl(transportId: transportId, CongestionControlSpec(sentSequenceExtensionId: id))
        }
        run(webRTC[transportId]!.playerOffered(player.clientTransport, context: dtlsContext), transport: transportId, session: session)
        let subscribed = engine.subscribe(
            session: session, params: SubscribeStreamParams(roomId: roomId, userId: publisher, transportId: transportId), now: now)
        apply(subscribed.actions)
        if case .failure(let error) = subscribed.result { return refuse(session, error) }
        let tracks = webRTC[transportId]?.offeredTracks ?? []
        guard !tracks.isEmpty else {
            let codecs = (try? subscribed.result.get())?.tracks.map(\.codec).joined(separator: ", ") ?? ""
            return refuse(session, RelayError(.sdpRejected, "the player takes none of the codecs '\(publisher)' sends (\(codecs))"))
        }
        let answer = negotiator.answer(toPlayerOffer: player, tracks: tracks.map(WebRTCSession.description(of:)), relay: relay)
        // The player's offer is the answered one: its sections with a track are active, and
        // their sinks are bound now.
        let mids = Set(tracks.map(\.mid))
        let facts = SubscriptionAnswerFacts(
            slots: tracks.map { OfferedSlot(mid: $0.mid, kind: $0.kind, isActive: true) }, accepted: mids,
            retransmission: Set(tracks.filter { $0.rtxPayloadType != nil }.map(\.mid)), newlyActive: mids)
        apply(engine.subscriptionAnswered(transportId: transportId, facts: facts))
        let resource = Self.resourceId()
        httpSessions[resource] = HTTPMediaSession(
            kind: .whep, session: session, roomId: roomId, userId: claims.sub, transportId: transportId, publisherUserId: publisher)
        logger.info("whep session started", metadata: ["room": "\(roomId)", "user": "\(claims.sub)", "publisher": "\(publisher)", "resource": "\(resource)"])
        return .created(resource: resource, sdp: answer, iceServers: iceServers)
    }

    /// The player's offer as the engine keeps it.
    static func layout(of offer: PlayerOffer) -> PlayerLayout {
        PlayerLayout(
            sections: offer.sections.map { section in
                PlayerLayout.Section(
                    mid: section.mid, kind: section.kind == .audio ? .audio : .video,
                    codecs: section.codecs.map { codec in
                        PlayerLayout.Codec(
                            payloadType: codec.payloadType, name: codec.name, clockRate: Int(codec.clockRate), channels: codec.channels,
                            formatParameters: codec.formatParameters, retransmissionPayloadType: section.retransmission[codec.payloadType])
                    })
            })
    }
}
