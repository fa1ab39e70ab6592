/// What ended a capacity search, so that its figure is read for what it is.
public enum CapacityBound: String, Sendable, Codable, Hashable {
    /// The failing step had the relay saturated (its cores, or a media thread, at 0.9 or more):
    /// the last passing load is the relay's capacity. This holds even when the tool was late at
    /// that step too, since the relay's CPU is read on its own side.
    case relay
    /// The traffic tool ran out first (a saturated thread or core, or late sends): the relay's
    /// capacity is above the last passing load, and the search could not find it.
    case tool
    /// A step failed on loss or latency with neither side saturated on average (the relay's
    /// metrics showed its cores below 0.9, the tool was not bound): the limit is in bursts (a
    /// keyframe fanned out to every subscriber on one core), socket buffers or the network.
    case neither
    /// A step failed and the relay's metrics were not given (`--relay-metrics`), so whose limit
    /// it was is unknown.
    case unverified
    /// The scenario could not be set up at the next load (ports, room limits).
    case setup
    /// Every step passed up to `--limit`: the real maximum is higher.
    case limit
}
