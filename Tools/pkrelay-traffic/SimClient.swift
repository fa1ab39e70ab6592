import PKRelayClient
import Protocol

/// One simulated user: a control connection whose requests are timed and whose errors are
/// counted by code.
struct SimClient: Sendable {
    let control: ControlClient
    let userId: String
    let recorder: ControlRecorder

    /// Connects a user's WebSocket.
    static func connect(url: String, userId: String, recorder: ControlRecorder) async throws -> SimClient {
        do {
            let control = try await ControlClient.connect(to: url, timeout: .seconds(10))
            return SimClient(control: control, userId: userId, recorder: recorder)
        } catch {
            recorder.recordError("connect-failed")
            throw error
        }
    }

    /// Sends a request, records its latency (when answered) and its error code (when refused).
    func request<P: Encodable & Sendable, R: Decodable & Sendable>(_ method: Method, _ params: P) async throws -> R {
        let start = MonotonicClock.microseconds()
        do {
            let result: R = try await control.request(method.rawValue, params, timeout: .seconds(10))
            recorder.recordLatency(method: method.rawValue, microseconds: MonotonicClock.microseconds() - start)
            return result
        } catch let error as ControlClientError {
            switch error {
            case .relay(let relayError):
                recorder.recordLatency(method: method.rawValue, microseconds: MonotonicClock.microseconds() - start)
                recorder.recordError("\(relayError.code.rawValue)")
            case .timeout: recorder.recordError("timeout")
            case .connectionClosed: recorder.recordError("connection-closed")
            case .connectFailed: recorder.recordError("connect-failed")
            case .malformed: recorder.recordError("malformed")
            }
            throw error
        }
    }

    /// A request whose result is `{}`.
    func call<P: Encodable & Sendable>(_ method: Method, _ params: P) async throws {
        let _: EmptyResult = try await request(method, params)
    }

    func close() async {
        await control.close()
    }
}
