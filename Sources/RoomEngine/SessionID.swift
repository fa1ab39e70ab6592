/// Identifies one control-channel connection. A connection is one user; it may join several rooms.
public typealias SessionID = UInt64
