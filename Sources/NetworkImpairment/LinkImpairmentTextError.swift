/// A setting in an impairment's text form that could not be read.
public struct LinkImpairmentTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The word as written.
    public var setting: String

    public var description: String {
        "cannot read '\(setting)': expected rate=BITS[k|M|G], bucket=BYTES, queue=BYTES|MSms|auto, delay=MS, jitter=MS, loss=P or burst=P/LENGTH"
    }
}
