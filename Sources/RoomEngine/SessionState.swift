/// What one session owns: its transports and the rooms it is in.
struct SessionState: Sendable, Hashable {
    var transports: Set<Int> = []
    var rooms: Set<String> = []
}
