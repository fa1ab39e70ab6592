import Auth
import Cluster
import Foundation
import ICE
import Logging
import MediaPlane
import Protocol
import RoomEngine
import SDP

/// WHIP ingest (RFC 9725): a publisher that speaks HTTP instead of the control channel. The
/// Bearer token is the room server's usual token (it names the room and the user); the relay
/// joins the room as that anchor on a session of its own, publishes the offer on a WebRTC
/// transport, and answers with the SDP. The room sees an ordinary anchor: joins, publishes,
/// forwards and links work as for any other.
extension RelayCore {
    /// The longest SDP offer taken over HTTP.
    static let maximumOfferBytes = 64 << 10

    /// POST to the WHIP endpoint: publishes `offer` as the token's user, in the token's room.
    func whipPublish(token: String, offer: String) async -> HTTPMediaAnswer {
        let claims: TokenClaims
        switch verifier.verify(token, nowSeconds: nowMs() / 1000) {
        case .failure(let error): return .refused(status: 401, message: error.message)
        case .success(let verified): claims = verified
        }
        guard let roomId = claims.room else {
            return .refused(status: 403, message: "the token names no room; WHIP publishes into the room its token names")
        }
        guard accepting else { return .refused(status: 503, message: "the relay is shutting down; publish to another relay") }
        // A room served by another node: the publisher goes there with the same request.
        switch await directory.route(roomId: roomId) {
        case .local: break
        case .elsewhere(let placement):
            directory.redirected()
            return .redirect(location: Self.whipURL(controlURL: placement.node.controlURL))
        case .unavailable(let reason): return .refused(status: 503, message: reason)
        }
        let (session, stream) = connect()
        drainEvents(of: session, stream)
        let join = join(JoinRoomParams(token: token, roomId: roomId, userId: claims.sub, role: .anchor, visible: true), session: session)
        apply(join.actions)
        if case .failure(let error) = join.result { return refuse(session, error) }
        let created = createWebRTCTransport(session: session)
        apply(created.actions)
        let transportId: Int
        let iceServers: [ICEServer]
        switch created.result {
        case .failure(let error): return refuse(session, error)
        case .success(let transport): (transportId, iceServers) = (transport.transportId, transport.iceServers ?? [])
        }
        let published = publishWithOffer(
            PublishStreamParams(roomId: roomId, streamIndex: .main, transportId: transportId, tracks: [], sdp: offer), offer: offer, session: session)
        apply(published.actions)
        switch published.result {
        case .failure(let error):
            return refuse(session, error)
        case .success(let result):
            let resource = Self.resourceId()
            httpSessions[resource] = HTTPMediaSession(
                kind: .whip, session: session, roomId: roomId, userId: claims.sub, transportId: transportId, publisherUserId: nil)
            logger.info("whip session started", metadata: ["room": "\(roomId)", "user": "\(claims.sub)", "resource": "\(resource)"])
            return .created(resource: resource, sdp: result.sdp ?? "", iceServers: iceServers)
        }
    }

    /// DELETE of a WHIP or WHEP resource: the session ends as a closed connection does (the
    /// room sees the user leave).
    func endHTTPSession(_ resource: String, kind: HTTPMediaSession.Kind) -> HTTPMediaAnswer {
        guard let record = httpSessions[resource], record.kind == kind else {
            return .refused(status: 404, message: "no \(kind.rawValue) session '\(resource)'")
        }
        httpSessions[resource] = nil
        disconnect(record.session)
        logger.info("\(kind.rawValue) session ended", metadata: ["room": "\(record.roomId)", "user": "\(record.userId)", "resource": "\(resource)"])
        return .done
    }

    /// PATCH of a WHIP or WHEP resource with a trickle-ice-sdpfrag. Candidates alone are taken
    /// and not needed (the relay is ICE-lite and learns the client's address from its checks);
    /// new ICE credentials are an ICE restart (RFC 9725 section 4.3.2): the relay answers with
    /// its own new credentials and candidate, the DTLS association and the media stay.
    func patchHTTPSession(_ resource: String, kind: HTTPMediaSession.Kind, fragment: String) -> HTTPMediaAnswer {
        guard let record = httpSessions[resource], record.kind == kind else {
            return .refused(status: 404, message: "no \(kind.rawValue) session '\(resource)'")
        }
        func value(_ attribute: String) -> String? {
            fragment.split(whereSeparator: \.isNewline).first { $0.hasPrefix("a=\(attribute):") }.map {
                String($0.dropFirst(attribute.count + 3)).trimmingCharacters(in: .whitespaces)
            }
        }
        let ufrag = value("ice-ufrag")
        let password = value("ice-pwd")
        guard ufrag != nil || password != nil else { return .done }
        guard let ufrag, let password, ICECredentials(ufrag: ufrag, password: password).isValid else {
            return .refused(status: 400, message: "an ICE restart names both a=ice-ufrag (4-256 ice-chars) and a=ice-pwd (22-256 ice-chars)")
        }
        guard let port = webRTCPort(of: record.transportId, session: record.session) else {
            return .refused(status: 409, message: "the session's transport has ended")
        }
        let (local, effects) = webRTC[record.transportId]!.restartFromFragment(client: ICECredentials(ufrag: ufrag, password: password))
        run(effects, transport: record.transportId, session: record.session)
        let relay = RelayTransportDescription(
            iceUsernameFragment: local.ufrag, icePassword: local.password, fingerprint: SDPFingerprint(algorithm: "sha-256", bytes: []),
            candidateAddress: media.announcedAddress, candidatePort: UInt16(port), offersTCP: media.offersICETCP,
            candidateAddress6: media.announcedAddress6, sessionID: 0)
        let answer =
            (["a=ice-lite", "a=ice-ufrag:\(local.ufrag)", "a=ice-pwd:\(local.password)"] + relay.candidates.map { "a=candidate:\($0.sdpValue)" }
            + ["a=end-of-candidates", ""]).joined(separator: "\r\n")
        return .fragment(answer, etag: local.ufrag)
    }

    /// A session of the relay's own whose join or publish failed: it goes, and the error becomes
    /// the HTTP status a WHIP client understands.
    func refuse(_ session: SessionID, _ error: RelayError) -> HTTPMediaAnswer {
        disconnect(session)
        return .refused(status: Self.httpStatus(of: error), message: error.message)
    }

    /// Reads what the relay says to a session of its own, so its queue never fills; an exit
    /// from the room (kicked, dismissed, token expired) ends the session, and so does, for a
    /// player, the leave of the publisher it plays.
    func drainEvents(of session: SessionID, _ stream: AsyncStream<String>, publisher: String? = nil) {
        let publisherLeft = publisher.map { "\"userId\":\"\($0)\"" }
        Task { [weak self] in
            for await text in stream {
                let exited = text.contains("\"onExitRoom\"")
                let played = publisherLeft.map { text.contains("\"onUserLeave\"") && text.contains($0) } ?? false
                if exited || played { await self?.sessionLeftItsRoom(session) }
            }
        }
    }

    /// A WHIP or WHEP session whose user the relay took out of the room ends.
    func sessionLeftItsRoom(_ session: SessionID) {
        guard let resource = httpSessions.first(where: { $0.value.session == session })?.key else { return }
        let record = httpSessions.removeValue(forKey: resource)!
        disconnect(session)
        logger.info(
            "\(record.kind.rawValue) session ended by the relay", metadata: ["room": "\(record.roomId)", "user": "\(record.userId)", "resource": "\(resource)"])
    }

    /// The HTTP status for a refusal: bad SDP 400, tokens 401, grants and roles 403, limits and
    /// conflicts 409, a relay that cannot take it now 503.
    static func httpStatus(of error: RelayError) -> Int {
        switch error.code {
        case .invalidToken, .tokenExpired: 401
        case .noPublishPermission, .noSubscribePermission, .callerIsAudience, .invisibleCannotPublish: 403
        case .sdpRejected, .invalidParams, .unsupported: 400
        case .shuttingDown, .clusterUnavailable, .noMediaPort, .rateLimited: 503
        case .streamNotFound, .notInRoom: 404
        default: 409
        }
    }

    /// A resource id nobody can guess (it is the session's only credential once created):
    /// 128 random bits, base 36.
    static func resourceId() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 36) + String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }

    /// The WHIP endpoint of the node whose control URL is `controlURL` (`ws://host:port/rtc`).
    static func whipURL(controlURL: String, path: String = "whip") -> String {
        var base = controlURL
        if base.hasPrefix("ws://") { base = "http://" + base.dropFirst(5) }
        if base.hasPrefix("wss://") { base = "https://" + base.dropFirst(6) }
        if base.hasSuffix("/rtc") { base.removeLast(4) }
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + path
    }
}
