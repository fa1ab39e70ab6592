#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock in microseconds: publishers stamp packets with it and subscribers in the
/// same process read it on arrival, so one-way latency needs no clock synchronisation.
enum MonotonicClock {
    /// Microseconds since an arbitrary fixed point.
    static func microseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
