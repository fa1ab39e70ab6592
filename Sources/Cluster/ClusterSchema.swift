import PostgresNIO

/// The cluster's tables, created when missing. Small on purpose: PostgreSQL coordinates (who is
/// alive, which node serves which room); media never touches it.
///
/// - `pkrelay_nodes`: one row per node id, with its current lease (epoch and expiry, both from
///   the database, so the nodes' clocks never decide who is alive).
/// - `pkrelay_rooms`: one row per placed room, bound to the lease its node held when it was
///   placed; a placement counts only while that very lease is live.
/// - `pkrelay_epoch`: the one sequence every lease and placement epoch comes from, so epochs only
///   grow and a stale one is recognised anywhere.
enum ClusterSchema {
    /// Any value, as long as every node uses the same one: migrations hold this advisory lock, so
    /// nodes starting together do not race on `CREATE ... IF NOT EXISTS`.
    static let migrationLock: Int64 = 0x504B_5265_6C61_7901

    static let statements: [PostgresQuery] = [
        "CREATE SEQUENCE IF NOT EXISTS pkrelay_epoch",
        """
        CREATE TABLE IF NOT EXISTS pkrelay_nodes (
            node_id text PRIMARY KEY,
            control_url text NOT NULL,
            media_address text NOT NULL,
            capacity integer NOT NULL CHECK (capacity > 0),
            load integer NOT NULL DEFAULT 0,
            lease_epoch bigint NOT NULL,
            lease_expires_at timestamptz NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS pkrelay_rooms (
            room_id text PRIMARY KEY,
            node_id text NOT NULL,
            lease_epoch bigint NOT NULL,
            epoch bigint NOT NULL,
            placed_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        "CREATE INDEX IF NOT EXISTS pkrelay_rooms_by_lease ON pkrelay_rooms (node_id, lease_epoch)",
    ]
}
