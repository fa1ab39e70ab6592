import Testing

/// The suites that drive real clients (ffmpeg encoders and decoders, aiortc): one at a time, so
/// their CPU-heavy children never compete with each other on a small machine and a frame count
/// measures the relay, not the scheduler.
@Suite(.serialized) enum RealClientInterop {}
