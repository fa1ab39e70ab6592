import Foundation
import RoomEngine
import Synchronization

@testable import PKRelayServer

/// One client connected to a relay core in process: its requests, and every message it was
/// sent, kept as it arrives so that a test can look back at the order.
final class CoreClient: Sendable {
    /// What arrived, shared with the task that reads it.
    final class Inbox: Sendable {
        let texts = Mutex<[String]>([])
    }

    let core: RelayCore
    let session: SessionID
    private let inbox = Inbox()
    private let nextId = Mutex(1)
    private let reader: Task<Void, Never>

    init(_ core: RelayCore) async {
        self.core = core
        let (session, messages) = await core.connect()
        self.session = session
        let inbox = self.inbox
        reader = Task {
            for await text in messages { inbox.texts.withLock { $0.append(text) } }
        }
    }

    deinit { reader.cancel() }

    /// Every message so far, as JSON objects, in order.
    var messages: [[String: Any]] {
        inbox.texts.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The events so far (messages that answer no request), by name, in order.
    var eventNames: [String] { messages.compactMap { $0["event"] as? String } }

    /// How many messages arrived so far: a mark to look from.
    var mark: Int { inbox.texts.withLock { $0.count } }

    /// Sends a request and waits for its answer (`result` or `error`).
    @discardableResult
    func request(_ method: String, _ params: [String: Any]) async throws -> [String: Any] {
        let id = nextId.withLock { id -> Int in
            defer { id += 1 }
            return id
        }
        await core.handle(CoreHarness.request(id, method, params), from: session)
        return try await waitFor("the answer to \(method)") { $0["id"] as? Int == id }
    }

    /// The first message since `mark` that `matches`, waiting up to `timeout` for it.
    @discardableResult
    func waitFor(_ what: String, since mark: Int = 0, timeout: Duration = .seconds(5), _ matches: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = messages.dropFirst(mark).first(where: matches) { return found }
            guard ContinuousClock.now < deadline else { throw WaitFailure(what: what, seen: eventNames) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The names of the events since `mark`, with each message's index.
    func events(since mark: Int) -> [(index: Int, name: String, body: [String: Any])] {
        messages.enumerated().dropFirst(mark).compactMap { index, message in
            guard let name = message["event"] as? String else { return nil }
            return (index, name, message["data"] as? [String: Any] ?? [:])
        }
    }

    struct WaitFailure: Error, CustomStringConvertible {
        var what: String
        var seen: [String]
        var description: String { "timed out waiting for \(what); events seen: \(seen)" }
    }
}
