/// The tool's exit statuses, for CI and scripts.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The run completed and kept every threshold.
    case success = 0
    /// A threshold given on the command line (`--max-loss`, `--max-p99`) was exceeded, or
    /// `--find-max` found no passing load.
    case thresholdExceeded = 1
    /// The relay could not be reached.
    case relayUnreachable = 2
    /// The scenario could not be set up (a setup request failed, a scenario file is invalid).
    case setupFailed = 3
    /// The traffic tool, not the relay, was the bound: a run or a `--find-max` step at which its
    /// own threads or cores were saturated or its sends were late. Its figures are the tool's.
    case toolBound = 4
    /// The command line is invalid (ArgumentParser's usage error).
    case usage = 64
}
