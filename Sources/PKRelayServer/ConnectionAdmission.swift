import RoomEngine

/// Whether a new control connection may open, decided by ``RelayCore/connect(from:)``.
public enum ConnectionAdmission: Sendable {
    /// The connection is a session.
    case admitted(ControlConnection)
    /// The connection is over a limit: close it with this code and reason.
    case refused(ConnectionClose)
}
