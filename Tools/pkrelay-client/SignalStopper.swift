import Foundation

/// Calls `stop` on SIGINT/SIGTERM instead of letting the signal kill the tool, so it can leave the
/// room cleanly.
final class SignalStopper: @unchecked Sendable {
    // The sources are created once in init and cancelled once; DispatchSource is thread-safe.
    private let sources: [any DispatchSourceSignal]

    init(_ stop: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop() }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
