public import Auth
public import CSocketShims
public import Cluster
public import Foundation
public import Hummingbird
public import HummingbirdWebSocket
public import Logging
public import MediaPlane
public import NIOCore
public import NIOWebSocket
public import Protocol
public import RoomEngine
public import ServiceLifecycle
public import UnixSignals

/// The whole relay: media plane, relay core, the control listener (WebSocket `/rtc`) and the
/// admin listener (`/healthz`, `/readyz`, `/metrics`, and the admin API under `/admin/v1`).
public final class RelayServer: Sendable {
    public let configuration: RelayConfiguration
    public let core: RelayCore
    let media: MediaPlane
    /// This node's cluster membership, the store it coordinates through, and its node-to-node
    /// connections; nil for a single node.
    let cluster: (membership: ClusterMembership, store: ClusterStore)?
    let peers: ClusterPeers?
    let logger: Logger
    let ports = PortWaiter()

    /// Frames larger than this close the connection; messages between maxMessageBytes and this
    /// get a -32001 error and the connection stays usable.
    static let hardFrameLimit = 1 << 20
    /// How long a client has to answer the relay's close frame before its connection is cut: a
    /// client that never reads must not hold up a shutdown (or a slow-reader disconnect).
    static let closeHandshakeTimeout = Duration.milliseconds(500)

    public init(
        configuration: RelayConfiguration, logger: Logger, nowMs: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.media = try MediaPlane(configuration: configuration.media)
        if configuration.cluster.isEnabled {
            let address = try DatabaseAddress(url: configuration.cluster.databaseURL)
            let store = ClusterStore(
                configuration: try address.clientConfiguration(), leaseDurationMs: Int64(configuration.cluster.leaseSeconds) * 1000, logger: logger)
            let membership = ClusterMembership(configuration: configuration.cluster, store: store, logger: logger, monotonicMs: { pkr_monotonic_ms() })
            let nodeId = configuration.cluster.nodeId
            let minter = TokenMinter(key: configuration.mintingKey)
            let dialer = WebSocketPeerDialer(
                bearer: {
                    minter.mint(
                        TokenClaims(
                            sub: "node:\(nodeId)", room: nil, exp: Int64(Date().timeIntervalSince1970) + 600, grants: TokenGrantSet(admin: true)))
                }, logger: logger)
            var timings = ClusterPeers.defaultTimings
            timings.goneAfterMs = Int64(configuration.cluster.leaseSeconds) * 1000
            let peers = ClusterPeers(nodeId: nodeId, logger: logger, timings: timings, dialer: dialer)
            self.cluster = (membership, store)
            self.peers = peers
            self.core = RelayCore(configuration: configuration, media: media, logger: logger, nowMs: nowMs, directory: membership, peers: peers)
            let core = self.core
            Task { await peers.attach(core) }
        } else {
            self.cluster = nil
            self.peers = nil
            self.core = RelayCore(configuration: configuration, media: media, logger: logger, nowMs: nowMs)
        }
    }

    /// Runs until a graceful shutdown (SIGTERM/SIGINT when `handleSignals`, or ``shutdown`` via the
    /// returned group) completes.
    public func makeServiceGroup(handleSignals: Bool) -> ServiceGroup {
        media.start()
        logger.notice(
            "media plane started",
            metadata: [
                "threads": "\(media.threadCount)", "gso": "\(media.segmentationOffload.rawValue)",
                "gro": "\(media.receiveOffload.rawValue)", "sendOnlySockets": "\(media.sendOnlySockets)",
                "connectedSockets": "\(media.connectedSockets)",
                "webrtcPorts": "\(media.webRTCPorts.isEmpty ? "off" : media.webRTCPorts.map(String.init).joined(separator: ","))",
            ])
        let control = makeControlApplication()
        let admin = makeAdminApplication()
        let lifecycle = RelayLifecycleService(core: core, media: media, logger: logger, graceSeconds: configuration.shutdownGraceSeconds)
        // Services shut down in reverse order: the drain first (its events queue webhooks), then
        // webhook delivery (bounded by the grace period), then the listeners.
        let webhooks = WebhookService(hub: core.webhooks, logger: logger, graceSeconds: configuration.shutdownGraceSeconds)
        // The cluster service comes first, so it shuts down last: after the drain has ended every
        // room, it leaves the cluster.
        var services: [any Service] = [control, admin, webhooks, lifecycle]
        if let cluster {
            let service = ClusterService(
                store: cluster.store, membership: cluster.membership, core: core, ports: ports, configuration: configuration, logger: logger)
            services.insert(service, at: 0)
        }
        return ServiceGroup(
            services: services,
            gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [],
            logger: logger)
    }

    /// Waits until both listeners are bound and returns their ports.
    public func boundPorts() async -> BoundPorts { await ports.wait() }

    func makeControlApplication() -> some ApplicationProtocol {
        let core = self.core
        let logger = self.logger
        let router = Router(context: ControlRequestContext.self)
        router.get("/") { _, _ in "PKRelay control channel: connect a WebSocket to /rtc (browser demo: /demo/, web SDK: /sdk/pkrelay.js)\n" }
        DemoRoutes(configuration: configuration).register(on: router)
        HTTPMediaRoutes(core: core).register(on: router)
        SDKRoutes().register(on: router)
        if let peers {
            // Node-to-node connections of a cluster: only a node token (admin grant, subject
            // node:ID, signed with the cluster's shared key) is let in.
            router.ws("/cluster") { request, _ in
                guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
                    case .success(let claims) = core.verifier.verify(String(header.dropFirst(7)), nowSeconds: core.nowMs() / 1000),
                    claims.effectiveGrants.isAdmin, claims.sub.hasPrefix("node:")
                else {
                    logger.notice("cluster connection refused: no valid node token", metadata: ["authority": "\(request.head.authority ?? "-")"])
                    return .dontUpgrade
                }
                return .upgrade([:])
            } onUpgrade: { inbound, outbound, context in
                context.requestContext.releaseWebSocketReference()
                await peers.serve(inbound: inbound, outbound: outbound)
            }
        }
        router.ws("/rtc") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // Upgraded: break hummingbird-websocket's context ↔ handler reference cycle, which
            // otherwise keeps this connection's request context alive for good.
            context.requestContext.releaseWebSocketReference()
            let connection: ControlConnection
            switch await core.connect(from: context.requestContext.peerAddress) {
            case .refused(let close):
                // Over a connection limit: the upgrade is answered, then closed at once with a
                // code and reason a browser can show (an HTTP refusal reaches script as 1006).
                try? await outbound.close(.init(codeNumber: Int(close.code)), reason: close.reason)
                return
            case .admitted(let admitted):
                connection = admitted
            }
            let session = connection.session
            // Whichever side ends the session first ends the connection: the client by closing,
            // or the relay by finishing the session's messages (drain: written first, then the
            // close frame) or by cutting it (a client that stopped reading: nothing more is
            // written). Then the reader stops too, so a client that never answers the close
            // frame is cut after the close handshake timeout instead of holding the connection
            // (and a shutdown) open.
            let cut = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    do {
                        for try await message in inbound.messages(maxSize: Self.hardFrameLimit) {
                            switch message {
                            case .text(let text): await core.handle(text, from: session)
                            case .binary: await core.handleBinary(from: session)
                            }
                        }
                    } catch {
                        logger.debug("control connection ended with an error", metadata: ["session": "\(session)", "error": "\(error)"])
                    }
                    await core.disconnect(session)
                    return false
                }
                group.addTask {
                    for await text in connection.messages {
                        do { try await outbound.write(.text(text)) } catch { return false }
                    }
                    let close = await core.takeClose(for: session)
                    try? await outbound.close(.init(codeNumber: Int(close.code)), reason: close.reason)
                    return false
                }
                group.addTask {
                    for await _ in connection.cut {}
                    return !Task.isCancelled
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            await core.disconnect(session)
            let close = await core.takeClose(for: session)
            if cut { try? await outbound.close(.init(codeNumber: Int(close.code)), reason: close.reason) }
        }
        let waiter = ports
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router, configuration: .init(ws: .init(maxFrameSize: Self.hardFrameLimit, closeTimeout: Self.closeHandshakeTimeout))),
            configuration: .init(address: .hostname(configuration.controlHost, port: configuration.controlPort), serverName: "PKRelay"),
            onServerRunning: { channel in
                waiter.reportControl(channel.localAddress?.port ?? 0)
                logger.notice(
                    "control channel listening", metadata: ["url": "ws://\(channel.localAddress?.ipAddress ?? "?"):\(channel.localAddress?.port ?? 0)/rtc"])
            },
            logger: logger)
    }

    func makeAdminApplication() -> some ApplicationProtocol {
        let core = self.core
        let logger = self.logger
        let router = Router()
        router.get("/healthz") { _, _ in "ok\n" }
        router.get("/readyz") { _, _ -> Response in
            let ready = await core.isAccepting
            return Response(status: ready ? .ok : .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: ready ? "ready\n" : "draining\n")))
        }
        router.get("/metrics") { _, _ -> Response in
            let overview = await core.overview()
            core.metrics.update(overview: overview, webhooks: core.webhooks.stats, refusals: core.refusals.snapshot(), cluster: core.clusterStatus)
            let text = core.metrics.exposition()
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        AdminRoutes(core: core, gate: AdminRateGate(requestsPerSecond: configuration.adminRequestsPerSecond, nowMs: core.nowMs()), ports: ports, logger: logger)
            .register(on: router)
        let waiter = ports
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.adminHost, port: configuration.adminPort), serverName: "PKRelay"),
            onServerRunning: { channel in
                waiter.reportAdmin(channel.localAddress?.port ?? 0)
                logger.notice("admin listening", metadata: ["url": "http://\(channel.localAddress?.ipAddress ?? "?"):\(channel.localAddress?.port ?? 0)"])
            },
            logger: logger)
    }
}
