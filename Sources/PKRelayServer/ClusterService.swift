import Cluster
import Logging
import MediaPlane
import ServiceLifecycle

/// Keeps this node in the cluster while the relay runs: creates the tables when missing,
/// registers once the control listener is bound (retrying while the database is unreachable or
/// the node id's previous lease is still live), renews the lease, stops serving every room when
/// the lease is lost and registers anew, and on shutdown leaves, which frees its rooms at once.
struct ClusterService: Service {
    let store: ClusterStore
    let membership: ClusterMembership
    let core: RelayCore
    let ports: PortWaiter
    let configuration: RelayConfiguration
    let logger: Logger

    /// How often the lease is looked at.
    static let tickInterval = Duration.milliseconds(250)

    func run() async throws {
        let store = self.store
        // Detached: PostgresClient.run() ends at a graceful shutdown it can see, and this
        // service still needs the pool to leave the cluster after the drain.
        let pool = Task.detached { await store.run() }
        defer { pool.cancel() }
        // The placements of rooms that end here are released while the node runs; leaving the
        // cluster at the end releases whatever is left in one transaction.
        let membership = self.membership
        await withDiscardingTaskGroup { group in
            group.addTask { await membership.releaseEndedRooms() }
            await keepMembership()
            group.cancelAll()
        }
    }

    /// Registers, renews and re-registers until the relay shuts down, then leaves the cluster.
    private func keepMembership() async {
        let node = ClusterNode(
            id: configuration.cluster.nodeId, controlURL: await controlURL(),
            mediaAddress: "\(configuration.media.announcedAddress ?? configuration.media.bindAddress):\(configuration.media.portRange.lowerBound)",
            capacity: configuration.cluster.capacity)
        var migrated = false
        var lastComplaint = ""
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if membership.lease == nil {
                do {
                    if !migrated {
                        try await store.migrate()
                        migrated = true
                    }
                    let sentAt = membership.monotonicMs()
                    let lease = try await store.register(node)
                    membership.granted(lease, sentAtMs: sentAt)
                    lastComplaint = ""
                    logger.notice("joined the cluster", metadata: ["node": "\(node.id)", "epoch": "\(lease.epoch)", "controlURL": "\(node.controlURL)"])
                } catch {
                    // Said once per distinct problem, not every retry.
                    let complaint = "\(error)"
                    if complaint != lastComplaint {
                        logger.error("cannot join the cluster yet; retrying", metadata: ["node": "\(node.id)", "error": "\(complaint)"])
                        lastComplaint = complaint
                    }
                    try? await Task.sleep(for: .seconds(1))
                    continue
                }
            }
            // A renewal runs on its own, so that one the database never answers cannot hold up
            // the deadline: the loop goes on ticking, gives up on it after a renewal interval
            // (its late answer is then ignored) and stops serving when the deadline comes.
            if let overdue = membership.overdueRenewal() {
                membership.renewalFailed(sentAtMs: overdue)
                logger.warning("cluster lease renewal got no answer in time; retrying")
            }
            switch membership.tick() {
            case .none:
                break
            case .renew:
                if let lease = membership.lease {
                    let sentAt = membership.monotonicMs()
                    membership.renewalSent(atMs: sentAt)
                    Task { await renew(lease, sentAtMs: sentAt) }
                }
            case .stopServing:
                await stopServing(because: "its cluster lease could not be renewed in time")
            }
            try? await Task.sleep(for: Self.tickInterval)
        }
        if let lease = membership.lease {
            do {
                try await store.leave(lease)
                logger.notice("left the cluster", metadata: ["node": "\(node.id)"])
            } catch {
                logger.warning("could not leave the cluster; its lease runs out instead", metadata: ["node": "\(node.id)", "error": "\(error)"])
            }
        }
    }

    private func renew(_ lease: NodeLease, sentAtMs: Int64) async {
        do {
            _ = try await store.renew(lease, load: await core.roomCount)
            membership.renewed(sentAtMs: sentAtMs)
        } catch ClusterStoreError.leaseLost {
            if membership.lease == lease, membership.renewalRefused() == .stopServing {
                await stopServing(because: "its cluster lease was gone when it renewed")
            }
        } catch {
            membership.renewalFailed(sentAtMs: sentAtMs)
            logger.warning("cluster lease renewal failed; retrying", metadata: ["error": "\(error)"])
        }
    }

    private func stopServing(because reason: String) async {
        let rooms = membership.reset()
        logger.error("stopping to serve every room: \(reason)", metadata: ["rooms": "\(rooms.count)"])
        await core.dismissAllRooms(reason: "this relay node lost its place in the cluster; join again through the room server")
    }

    private func controlURL() async -> String {
        if !configuration.cluster.publicControlURL.isEmpty { return configuration.cluster.publicControlURL }
        let port = await ports.wait().control
        return "ws://\(configuration.controlHost):\(port)/rtc"
    }
}
