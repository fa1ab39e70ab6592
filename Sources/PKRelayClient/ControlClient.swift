public import Foundation
public import HummingbirdWSClient
public import Logging
public import NIOCore
public import NIOWebSocket
public import Protocol

/// A client of PKRelay's control channel (a WebSocket carrying JSON requests, responses and
/// events).
///
/// Requests get increasing numeric ids and are matched to their responses; events are kept in
/// arrival order until read with ``nextEvent(named:timeout:)``. Every wait is bounded by a
/// timeout. Raw text and binary frames can be sent for testing the relay's input handling, and
/// responses nobody waits for (answers to raw messages) are kept for ``nextUnmatchedResponse(timeout:)``.
///
/// ```swift
/// let client = try await ControlClient.connect(to: "ws://127.0.0.1:7700/rtc")
/// let joined: JoinRoomResult = try await client.request("joinRoom", JoinRoomParams(token: token, roomId: "r1", userId: "alice"))
/// ```
public actor ControlClient {
    /// The default time allowed for a response or event.
    public let defaultTimeout: Duration
    private var writer: WebSocketOutboundWriter?
    private var connectionTask: Task<Void, Never>?
    private var nextId: Int64 = 1
    private var closed = false
    /// The close frame the relay sent, once the connection has ended.
    private var closeFrame: (code: Int, reason: String)?

    /// Answers that arrived for ids a request is about to wait for.
    private var earlyResponses: [Int64: String] = [:]
    private var responseWaiters: [Int64: CheckedContinuation<String, any Error>] = [:]
    private var expectedIds: Set<Int64> = []

    private var unmatched: [ControlResponse] = []
    private var unmatchedWaiters: [UInt64: CheckedContinuation<ControlResponse, any Error>] = [:]

    private var eventLog: [ReceivedEvent] = []
    private var eventConsumed: [Bool] = []
    private var eventWaiters: [UInt64: (name: String?, continuation: CheckedContinuation<ReceivedEvent, any Error>)] = [:]
    private var nextWaiterId: UInt64 = 1

    private init(defaultTimeout: Duration) {
        self.defaultTimeout = defaultTimeout
    }

    /// Opens a WebSocket to `url` (e.g. `ws://127.0.0.1:7700/rtc`).
    ///
    /// - Parameters:
    ///   - url: The relay's control URL.
    ///   - timeout: The time allowed for connecting, and the default for every later wait.
    ///   - logger: Where the WebSocket library logs.
    public static func connect(to url: String, timeout: Duration = .seconds(10), logger: Logger = Logger(label: "pkrelay.client")) async throws -> ControlClient
    {
        let client = ControlClient(defaultTimeout: timeout)
        let (opened, openedContinuation) = AsyncStream<Result<WebSocketOutboundWriter, ControlClientError>>.makeStream()
        let task = Task {
            do {
                let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 21, closeTimeout: .seconds(2))
                let frame = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    openedContinuation.yield(.success(outbound))
                    for try await message in inbound.messages(maxSize: 1 << 21) {
                        if case .text(let text) = message { await client.receive(text) }
                    }
                }
                if let frame { await client.recordClose(code: Int(UInt16(webSocketErrorCode: frame.closeCode)), reason: frame.reason ?? "") }
                openedContinuation.yield(.failure(.connectFailed("the relay closed the connection")))
            } catch {
                openedContinuation.yield(.failure(.connectFailed("\(error)")))
            }
            openedContinuation.finish()
            await client.connectionEnded()
        }
        await client.setConnectionTask(task)
        let outcome = try await withTimeout(timeout, "the WebSocket to \(url)") {
            for await outcome in opened { return outcome }
            return .failure(ControlClientError.connectFailed("the connection ended before it opened"))
        }
        switch outcome {
        case .success(let writer):
            await client.setWriter(writer)
            return client
        case .failure(let error):
            task.cancel()
            throw error
        }
    }

    private func setConnectionTask(_ task: Task<Void, Never>) { connectionTask = task }
    private func setWriter(_ writer: WebSocketOutboundWriter) { self.writer = writer }

    /// Whether the WebSocket has closed.
    public var isClosed: Bool { closed }

    /// The close code the relay sent (1001 going away, 1008 policy violation, 1009 message too
    /// big, 1013 try again later), once the connection has ended; nil before, or when it ended
    /// without a close frame.
    public var closeCode: Int? { closeFrame?.code }

    /// The reason the relay gave with its close code.
    public var closeReason: String? { closeFrame?.reason }

    /// Waits until the connection has ended, at most `timeout` (``defaultTimeout`` when nil).
    public func waitUntilClosed(timeout: Duration? = nil) async throws {
        let task = connectionTask
        try await withTimeout(timeout ?? defaultTimeout, "the relay to close the connection") { await task?.value }
    }

    func recordClose(code: Int, reason: String) { closeFrame = (code, reason) }

    // MARK: Requests

    /// Sends a request and waits for its response.
    ///
    /// - Parameters:
    ///   - method: The method name, e.g. `joinRoom`.
    ///   - params: The parameters, encoded as the `params` object.
    ///   - timeout: The time allowed for the response; ``defaultTimeout`` when nil.
    /// - Returns: The decoded `result`.
    /// - Throws: ``ControlClientError/relay(_:)`` for an error response, ``ControlClientError/timeout(_:)``,
    ///   ``ControlClientError/connectionClosed`` or ``ControlClientError/malformed(_:)``.
    public func request<P: Encodable, R: Decodable>(_ method: String, _ params: P, timeout: Duration? = nil) async throws -> R {
        let id = nextId
        nextId += 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data: Data
        do {
            data = try encoder.encode(OutboundRequest(id: id, method: method, params: params))
        } catch {
            throw ControlClientError.malformed("could not encode \(method) params: \(error)")
        }
        expectedIds.insert(id)
        defer { expectedIds.remove(id) }
        try await write(.text(String(decoding: data, as: UTF8.self)))
        let text = try await awaitResponse(id: id, what: "the response to \(method) (id \(id))", timeout: timeout ?? defaultTimeout)
        let decoded: TypedResponse<R>
        do {
            decoded = try JSONDecoder().decode(TypedResponse<R>.self, from: Data(text.utf8))
        } catch {
            throw ControlClientError.malformed("response to \(method) is not a \(R.self): \(error); \(text)")
        }
        if let error = decoded.error { throw ControlClientError.relay(error) }
        guard let result = decoded.result else { throw ControlClientError.malformed("response to \(method) has neither result nor error: \(text)") }
        return result
    }

    /// Sends a request whose result carries nothing of interest (`{}`).
    public func call<P: Encodable>(_ method: String, _ params: P, timeout: Duration? = nil) async throws {
        let _: EmptyResult = try await request(method, params, timeout: timeout)
    }

    private func awaitResponse(id: Int64, what: String, timeout: Duration) async throws -> String {
        if let early = earlyResponses.removeValue(forKey: id) { return early }
        if closed { throw ControlClientError.connectionClosed }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expireResponse(id: id, what: what)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            responseWaiters[id] = continuation
        }
    }

    private func expireResponse(id: Int64, what: String) {
        responseWaiters.removeValue(forKey: id)?.resume(throwing: ControlClientError.timeout(what))
    }

    // MARK: Raw messages

    /// Sends `text` as one text frame, unchanged.
    public func sendRaw(_ text: String) async throws {
        try await write(.text(text))
    }

    /// Sends `bytes` as one binary frame.
    public func sendBinary(_ bytes: [UInt8]) async throws {
        try await write(.binary(ByteBuffer(bytes: bytes)))
    }

    /// The next response that no ``request(_:_:timeout:)`` call is waiting for (an answer to a
    /// raw message), in arrival order.
    public func nextUnmatchedResponse(timeout: Duration? = nil) async throws -> ControlResponse {
        if !unmatched.isEmpty { return unmatched.removeFirst() }
        if closed { throw ControlClientError.connectionClosed }
        let waiter = nextWaiterId
        nextWaiterId += 1
        let limit = timeout ?? defaultTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.expireUnmatched(waiter)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            unmatchedWaiters[waiter] = continuation
        }
    }

    /// Sends `text` as a text frame and returns the next unmatched response: the relay's answer
    /// to it, provided no other raw message is outstanding.
    public func exchangeRaw(_ text: String, timeout: Duration? = nil) async throws -> ControlResponse {
        try await sendRaw(text)
        return try await nextUnmatchedResponse(timeout: timeout)
    }

    private func expireUnmatched(_ waiter: UInt64) {
        unmatchedWaiters.removeValue(forKey: waiter)?.resume(throwing: ControlClientError.timeout("an unmatched response"))
    }

    // MARK: Events

    /// Waits for the oldest unread event called `name` (any event when nil) and marks it read.
    /// Events of other names stay unread.
    public func nextEvent(named name: String? = nil, timeout: Duration? = nil) async throws -> ReceivedEvent {
        if let index = firstUnread(named: name) {
            eventConsumed[index] = true
            return eventLog[index]
        }
        if closed { throw ControlClientError.connectionClosed }
        let waiter = nextWaiterId
        nextWaiterId += 1
        let limit = timeout ?? defaultTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.expireEvent(waiter, name: name)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            eventWaiters[waiter] = (name, continuation)
        }
    }

    /// Every event received so far, read or not, in arrival order.
    public func events() -> [ReceivedEvent] { eventLog }

    /// The number of events received so far.
    public var eventCount: Int { eventLog.count }

    private func firstUnread(named name: String?) -> Int? {
        eventLog.indices.first { !eventConsumed[$0] && (name == nil || eventLog[$0].name == name) }
    }

    private func expireEvent(_ waiter: UInt64, name: String?) {
        eventWaiters.removeValue(forKey: waiter)?.continuation.resume(throwing: ControlClientError.timeout("event \(name ?? "(any)")"))
    }

    // MARK: Closing

    /// Closes the WebSocket and waits (bounded) for the connection to end.
    public func close() async {
        let writer = closed ? nil : writer
        let task = connectionTask
        do {
            // The close frame's write is bounded too: a relay that stopped reading must not hold us.
            try await withTimeout(.seconds(5), "the WebSocket to close") {
                try? await writer?.close(.normalClosure, reason: "client closing")
                await task?.value
            }
        } catch {
            task?.cancel()
        }
        connectionEnded()
    }

    // MARK: Incoming

    private func write(_ frame: WebSocketOutboundWriter.OutboundFrame) async throws {
        guard let writer, !closed else { throw ControlClientError.connectionClosed }
        do {
            try await writer.write(frame)
        } catch {
            throw ControlClientError.connectionClosed
        }
    }

    func receive(_ text: String) {
        guard let envelope = try? JSONDecoder().decode(InboundEnvelope.self, from: Data(text.utf8)) else { return }
        if let name = envelope.event {
            let event = try? JSONDecoder().decode(ServerEvent.self, from: Data(text.utf8))
            let record = ReceivedEvent(name: name, event: event, text: text)
            if let match = eventWaiters.sorted(by: { $0.key < $1.key }).first(where: { $0.value.name == nil || $0.value.name == name }) {
                eventLog.append(record)
                eventConsumed.append(true)
                eventWaiters.removeValue(forKey: match.key)
                match.value.continuation.resume(returning: record)
            } else {
                eventLog.append(record)
                eventConsumed.append(false)
            }
            return
        }
        if case .number(let number) = envelope.id, expectedIds.contains(number) {
            if let waiter = responseWaiters.removeValue(forKey: number) {
                waiter.resume(returning: text)
            } else {
                earlyResponses[number] = text
            }
            return
        }
        let response = ControlResponse(id: envelope.id, error: envelope.error, hasResult: envelope.result != nil, text: text)
        if let match = unmatchedWaiters.min(by: { $0.key < $1.key }) {
            unmatchedWaiters.removeValue(forKey: match.key)
            match.value.resume(returning: response)
        } else {
            unmatched.append(response)
        }
    }

    func connectionEnded() {
        guard !closed else { return }
        closed = true
        for waiter in responseWaiters.values { waiter.resume(throwing: ControlClientError.connectionClosed) }
        responseWaiters.removeAll()
        for waiter in unmatchedWaiters.values { waiter.resume(throwing: ControlClientError.connectionClosed) }
        unmatchedWaiters.removeAll()
        for waiter in eventWaiters.values { waiter.continuation.resume(throwing: ControlClientError.connectionClosed) }
        eventWaiters.removeAll()
    }
}
