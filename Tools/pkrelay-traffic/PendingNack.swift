/// A missing video packet a receiver has asked (or will ask) the relay to resend.
struct PendingNack {
    var extended: Int64
    var detected: Int64
    var lastSent: Int64 = 0
    var tries = 0
}
