public import Logging
public import PostgresNIO
public import Protocol

/// The cluster's shared state in PostgreSQL: node leases and room placements.
///
/// Every rule that keeps a room on one node at a time is a single SQL statement judged on the
/// database's clock: a registration succeeds only when no live lease holds the node id, a renewal
/// only for the lease's own epoch while it is live, and a room is claimed only when its placement
/// is missing or bound to a lease that is no longer live (compare-and-set with
/// `INSERT ... ON CONFLICT ... WHERE`). ``run()`` must be running for any call to complete.
///
/// Nothing is announced with `NOTIFY`: no node needs to hear of a change as it happens. Every
/// decision reads the row it needs when it is made (a join claims its room, the placement route
/// reads the placement), and nodes learn of each other's loss over their own connections. A
/// `NOTIFY` would also take a database-wide lock at every commit that sends one.
public final class ClusterStore: PlacementStore {
    let client: PostgresClient
    let logger: Logger
    /// How long a lease lasts past its last registration or renewal, in milliseconds.
    public let leaseDurationMs: Int64

    /// How often placement retries after losing a race to another node.
    static let placementAttempts = 4
    /// How often registration tries again when the row it found live vanished before it could
    /// read it (its node left in between).
    static let registrationAttempts = 4

    /// Creates a store over `configuration`; nothing connects until ``run()``.
    public init(configuration: PostgresClient.Configuration, leaseDurationMs: Int64, logger: Logger) {
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.leaseDurationMs = leaseDurationMs
    }

    /// Runs the connection pool until the task is cancelled.
    public func run() async {
        await client.run()
    }

    /// Creates the tables when missing; safe to call from every node at once.
    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(ClusterSchema.migrationLock))", logger: logger)
            for statement in ClusterSchema.statements {
                try await connection.query(statement, logger: logger)
            }
        }
    }

    /// The database's clock, in Unix milliseconds.
    public func databaseNowMs() async throws -> Int64 {
        let rows = try await client.query("SELECT (extract(epoch FROM now()) * 1000)::int8", logger: logger)
        for try await now in rows.decode(Int64.self) { return now }
        return 0
    }

    // MARK: Leases

    /// Registers `node` with a new lease. Throws ``ClusterStoreError/nodeIdInUse(nodeId:untilMs:)``
    /// while another lease under the same id is live.
    public func register(_ node: ClusterNode) async throws -> NodeLease {
        try Self.check(node.id)
        for _ in 0..<Self.registrationAttempts {
            let rows = try await client.query(
                """
                INSERT INTO pkrelay_nodes AS n (node_id, control_url, media_address, capacity, load, lease_epoch, lease_expires_at)
                VALUES (\(node.id), \(node.controlURL), \(node.mediaAddress), \(max(1, node.capacity)), 0,
                        nextval('pkrelay_epoch'), now() + \(leaseDurationMs)::int8 * interval '1 millisecond')
                ON CONFLICT (node_id) DO UPDATE SET
                    control_url = EXCLUDED.control_url, media_address = EXCLUDED.media_address,
                    capacity = EXCLUDED.capacity, load = 0,
                    lease_epoch = EXCLUDED.lease_epoch, lease_expires_at = EXCLUDED.lease_expires_at
                WHERE n.lease_expires_at <= now()
                RETURNING n.lease_epoch, (extract(epoch FROM n.lease_expires_at) * 1000)::int8
                """, logger: logger)
            for try await (epoch, expiresAtMs) in rows.decode((Int64, Int64).self) {
                logger.info("cluster lease granted", metadata: ["node": "\(node.id)", "epoch": "\(epoch)"])
                return NodeLease(nodeId: node.id, epoch: epoch, expiresAtMs: expiresAtMs)
            }
            let held = try await client.query(
                "SELECT (extract(epoch FROM lease_expires_at) * 1000)::int8 FROM pkrelay_nodes WHERE node_id = \(node.id)", logger: logger)
            for try await untilMs in held.decode(Int64.self) { throw ClusterStoreError.nodeIdInUse(nodeId: node.id, untilMs: untilMs) }
            // The live row vanished between the two statements (its node left): try again.
        }
        throw ClusterStoreError.registrationContended(nodeId: node.id)
    }

    /// Extends `lease` and reports the node's load. Throws ``ClusterStoreError/leaseLost(nodeId:)``
    /// when the lease is no longer live: the node must stop serving its rooms.
    public func renew(_ lease: NodeLease, load: Int) async throws -> NodeLease {
        let rows = try await client.query(
            """
            UPDATE pkrelay_nodes
            SET lease_expires_at = now() + \(leaseDurationMs)::int8 * interval '1 millisecond', load = \(load)
            WHERE node_id = \(lease.nodeId) AND lease_epoch = \(lease.epoch) AND lease_expires_at > now()
            RETURNING (extract(epoch FROM lease_expires_at) * 1000)::int8
            """, logger: logger)
        for try await expiresAtMs in rows.decode(Int64.self) {
            return NodeLease(nodeId: lease.nodeId, epoch: lease.epoch, expiresAtMs: expiresAtMs)
        }
        throw ClusterStoreError.leaseLost(nodeId: lease.nodeId)
    }

    /// Leaves the cluster on purpose: the lease and every placement bound to it are removed at
    /// once (instead of running out), so the rooms can be placed again at once.
    public func leave(_ lease: NodeLease) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM pkrelay_rooms WHERE node_id = \(lease.nodeId) AND lease_epoch = \(lease.epoch)", logger: logger)
            try await connection.query("DELETE FROM pkrelay_nodes WHERE node_id = \(lease.nodeId) AND lease_epoch = \(lease.epoch)", logger: logger)
        }
    }

    /// The nodes holding a live lease, by id.
    public func liveNodes() async throws -> [ClusterNode] {
        let rows = try await client.query(
            """
            SELECT node_id, control_url, media_address, capacity, load FROM pkrelay_nodes
            WHERE lease_expires_at > now() ORDER BY node_id
            """, logger: logger)
        var nodes: [ClusterNode] = []
        for try await (id, controlURL, mediaAddress, capacity, load) in rows.decode((String, String, String, Int32, Int32).self) {
            nodes.append(ClusterNode(id: id, controlURL: controlURL, mediaAddress: mediaAddress, capacity: Int(capacity), load: Int(load)))
        }
        return nodes
    }

    // MARK: Placement

    /// Where `roomId` lives now: nil when it is not placed or its node's lease is no longer live.
    public func placement(of roomId: String) async throws -> RoomPlacement? {
        let rows = try await client.query(
            """
            SELECT r.epoch, n.node_id, n.control_url, n.media_address, n.capacity, n.load
            FROM pkrelay_rooms r JOIN pkrelay_nodes n
              ON n.node_id = r.node_id AND n.lease_epoch = r.lease_epoch AND n.lease_expires_at > now()
            WHERE r.room_id = \(roomId)
            """, logger: logger)
        for try await (epoch, id, controlURL, mediaAddress, capacity, load) in rows.decode((Int64, String, String, String, Int32, Int32).self) {
            let node = ClusterNode(id: id, controlURL: controlURL, mediaAddress: mediaAddress, capacity: Int(capacity), load: Int(load))
            return RoomPlacement(roomId: roomId, node: node, epoch: epoch)
        }
        return nil
    }

    /// Places `roomId`, or returns where it already lives: a room that is not placed, or whose
    /// node's lease ran out, goes to the live node with the fewest rooms for its capacity.
    public func place(_ roomId: String) async throws -> RoomPlacement {
        try Self.check(roomId)
        for _ in 0..<Self.placementAttempts {
            if let existing = try await placement(of: roomId) { return existing }
            guard let candidate = try await leastLoadedNode() else { throw ClusterStoreError.noLiveNode }
            if let placed = try await claim(roomId, for: candidate.id, leaseEpoch: nil) { return placed }
        }
        throw ClusterStoreError.placementContended(roomId: roomId)
    }

    /// Claims `roomId` for the node holding `lease` (a join reached a node the room server did
    /// not place the room on): granted when the room is not placed or its node's lease is no
    /// longer live; otherwise the placement that stands is returned, for a redirect.
    public func claim(_ roomId: String, for lease: NodeLease) async throws -> RoomPlacement {
        try Self.check(roomId)
        for _ in 0..<Self.placementAttempts {
            if let placed = try await claim(roomId, for: lease.nodeId, leaseEpoch: lease.epoch) { return placed }
            if let existing = try await placement(of: roomId) { return existing }
            // Neither: this node's own lease is not live any more.
            if try await !isLive(lease) { throw ClusterStoreError.leaseLost(nodeId: lease.nodeId) }
        }
        throw ClusterStoreError.placementContended(roomId: roomId)
    }

    /// Removes the placement `epoch` of `roomId` (the room ended on its node); false when that
    /// placement no longer stands.
    @discardableResult
    public func release(_ roomId: String, epoch: Int64) async throws -> Bool {
        let rows = try await client.query(
            "DELETE FROM pkrelay_rooms WHERE room_id = \(roomId) AND epoch = \(epoch) RETURNING epoch", logger: logger)
        var released = false
        for try await _ in rows.decode(Int64.self) { released = true }
        return released
    }

    /// The rooms placed under `lease`, with their epochs: what a node reconciles against after
    /// reconnecting to the database.
    public func rooms(of lease: NodeLease) async throws -> [String: Int64] {
        let rows = try await client.query(
            "SELECT room_id, epoch FROM pkrelay_rooms WHERE node_id = \(lease.nodeId) AND lease_epoch = \(lease.epoch)", logger: logger)
        var rooms: [String: Int64] = [:]
        for try await (roomId, epoch) in rows.decode((String, Int64).self) { rooms[roomId] = epoch }
        return rooms
    }

    // MARK: Private

    private func claim(_ roomId: String, for nodeId: String, leaseEpoch: Int64?) async throws -> RoomPlacement? {
        // The room's row is written only when it is missing or bound to a lease that is no longer
        // live; under concurrent claims, PostgreSQL re-checks the WHERE against the row the
        // winner wrote, so exactly one claim succeeds.
        let rows = try await client.query(
            """
            INSERT INTO pkrelay_rooms AS r (room_id, node_id, lease_epoch, epoch)
            SELECT \(roomId), n.node_id, n.lease_epoch, nextval('pkrelay_epoch') FROM pkrelay_nodes n
            WHERE n.node_id = \(nodeId) AND n.lease_expires_at > now()
              AND (\(leaseEpoch)::int8 IS NULL OR n.lease_epoch = \(leaseEpoch)::int8)
            ON CONFLICT (room_id) DO UPDATE SET
                node_id = EXCLUDED.node_id, lease_epoch = EXCLUDED.lease_epoch, epoch = EXCLUDED.epoch, placed_at = now()
            WHERE NOT EXISTS (
                SELECT 1 FROM pkrelay_nodes o
                WHERE o.node_id = r.node_id AND o.lease_epoch = r.lease_epoch AND o.lease_expires_at > now())
            RETURNING r.epoch
            """, logger: logger)
        var epoch: Int64?
        for try await claimed in rows.decode(Int64.self) { epoch = claimed }
        guard let epoch else { return nil }
        logger.info("room placed", metadata: ["room": "\(roomId)", "node": "\(nodeId)", "epoch": "\(epoch)"])
        // The node as it stands (its row is live: the claim just read it).
        guard let placed = try await placement(of: roomId), placed.epoch == epoch else { return nil }
        return placed
    }

    private func leastLoadedNode() async throws -> ClusterNode? {
        let rows = try await client.query(
            """
            SELECT n.node_id, n.control_url, n.media_address, n.capacity, n.load
            FROM pkrelay_nodes n
            WHERE n.lease_expires_at > now()
            ORDER BY (SELECT count(*) FROM pkrelay_rooms r WHERE r.node_id = n.node_id AND r.lease_epoch = n.lease_epoch)::float8
                     / n.capacity, n.node_id
            LIMIT 1
            """, logger: logger)
        for try await (id, controlURL, mediaAddress, capacity, load) in rows.decode((String, String, String, Int32, Int32).self) {
            return ClusterNode(id: id, controlURL: controlURL, mediaAddress: mediaAddress, capacity: Int(capacity), load: Int(load))
        }
        return nil
    }

    private func isLive(_ lease: NodeLease) async throws -> Bool {
        let rows = try await client.query(
            """
            SELECT 1::int4 FROM pkrelay_nodes
            WHERE node_id = \(lease.nodeId) AND lease_epoch = \(lease.epoch) AND lease_expires_at > now()
            """, logger: logger)
        for try await _ in rows.decode(Int32.self) { return true }
        return false
    }

    private static func check(_ id: String) throws {
        if let problem = RelayIdentifier.problem(with: id) { throw ClusterStoreError.invalidIdentifier("\(id.prefix(40)) \(problem)") }
    }
}
