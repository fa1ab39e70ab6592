import RoomEngine

/// The control connections the relay core serves: each one's state, how many come from each
/// peer address (for `control.maxConnectionsPerAddress`), and how the listener should close the
/// ones the relay ended for a reason other than going away.
struct ClientSessions: Sendable {
    private var byId: [SessionID: ClientSession] = [:]
    private var perAddress: [String: Int] = [:]
    private var closes: [SessionID: ConnectionClose] = [:]
    private var nextId: SessionID = 1

    subscript(id: SessionID) -> ClientSession? {
        get { byId[id] }
        set { byId[id] = newValue }
    }

    var count: Int { byId.count }

    /// Every open session's id, in the order they opened.
    var ids: [SessionID] { byId.keys.sorted() }

    var all: Dictionary<SessionID, ClientSession>.Values { byId.values }

    /// Open connections from `address`.
    func connections(from address: String) -> Int { perAddress[address, default: 0] }

    /// Opens a session with the next id; `make` builds its state.
    mutating func open(_ make: (SessionID) -> ClientSession) -> SessionID {
        let id = nextId
        nextId += 1
        let session = make(id)
        if let address = session.address { perAddress[address, default: 0] += 1 }
        byId[id] = session
        return id
    }

    /// Forgets a session; `close` is how its listener is to close it, when not going away.
    mutating func remove(_ id: SessionID, close: ConnectionClose) -> ClientSession? {
        guard let session = byId.removeValue(forKey: id) else { return nil }
        if let address = session.address {
            let remaining = perAddress[address, default: 1] - 1
            perAddress[address] = remaining > 0 ? remaining : nil
            if close != .goingAway { closes[id] = close }
        }
        return session
    }

    /// How the listener closes a session the relay ended (going away unless a limit ended it); forgets it.
    mutating func takeClose(for id: SessionID) -> ConnectionClose {
        closes.removeValue(forKey: id) ?? .goingAway
    }
}
