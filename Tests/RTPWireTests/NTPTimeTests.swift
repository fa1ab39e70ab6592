import RTPWire
import Testing

@Suite("NTP time helpers")
struct NTPTimeTests {
    static let middles: [(ntp: UInt64, middle: UInt32)] = [
        (0, 0),
        (0x0123_4567_89AB_CDEF, 0x4567_89AB),
        (0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF),
        (0xE7A1_2B3C_8000_0000, 0x2B3C_8000),
    ]

    @Test("middle32", arguments: middles)
    func middle32(_ row: (ntp: UInt64, middle: UInt32)) {
        #expect(NTPTime.middle32(row.ntp) == row.middle)
    }

    @Test(
        "Unix milliseconds round trip, across the 2036 NTP era wrap",
        arguments: [0, 1, 999, 1000, 1_700_000_000_123, 2_085_978_496_000, 4_000_000_000_000] as [Int64])
    func unixRoundTrip(_ milliseconds: Int64) {
        let ntp = NTPTime.fromUnixMilliseconds(milliseconds)
        #expect(NTPTime.unixMilliseconds(ntp) == milliseconds)
    }

    @Test("Unix epoch is 2208988800 NTP seconds")
    func epoch() {
        let epochSeconds: UInt64 = 2_208_988_800
        #expect(NTPTime.fromUnixMilliseconds(0) == epochSeconds << 32)
        #expect(NTPTime.fromUnixMilliseconds(500) == epochSeconds << 32 | 0x8000_0000)
        #expect(NTPTime.fromUnixMilliseconds(-10) == epochSeconds << 32, "before 1970 counts as 1970")
    }

    static let durations: [(milliseconds: Int64, compact: UInt32)] = [
        (0, 0), (-5, 0), (1000, 0x0001_0000), (500, 0x0000_8000), (1_500, 0x0001_8000), (Int64.max, UInt32.max),
    ]

    @Test("compact (16.16) durations", arguments: durations)
    func compact(_ row: (milliseconds: Int64, compact: UInt32)) {
        #expect(NTPTime.compact(fromMilliseconds: row.milliseconds) == row.compact)
        if row.milliseconds >= 0, row.compact != UInt32.max {
            #expect(NTPTime.milliseconds(fromCompact: row.compact) == row.milliseconds)
        }
    }

    @Test("round-trip time from LSR and DLSR")
    func roundTripTime() {
        // Sender report sent at t, echoed after 250 ms of receiver delay, arriving back at t + 330 ms.
        let sentAt: Int64 = 1_700_000_000_000
        let lsr = NTPTime.middle32(NTPTime.fromUnixMilliseconds(sentAt))
        let dlsr = NTPTime.compact(fromMilliseconds: 250)
        let arrival = NTPTime.middle32(NTPTime.fromUnixMilliseconds(sentAt + 330))
        let rtt = NTPTime.milliseconds(fromCompact: arrival &- lsr &- dlsr)
        #expect((79...80).contains(rtt))
    }
}
