/// Moves a newly made ``PipeLink`` from the control plane, which creates it, to the one
/// data-plane thread that will own it.
struct PipeLinkHandoff: @unchecked Sendable {
    // Created on the control plane and never touched there again: only the receiving shard uses
    // the link. The carriers inside are shared by design with exactly one other shard.
    let link: PipeLink
}
