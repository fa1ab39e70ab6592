import RTPWire

/// The fields of an `RTCPPacketView` that tables compare against.
struct RTCPPacketViewSummary: Equatable, CustomStringConvertible {
    var packetType: UInt8
    var countOrFormat: UInt8
    var offset: Int
    var length: Int

    init(packetType: UInt8, countOrFormat: UInt8, offset: Int, length: Int) {
        self.packetType = packetType
        self.countOrFormat = countOrFormat
        self.offset = offset
        self.length = length
    }

    init(_ view: RTCPPacketView) {
        self.init(packetType: view.packetType, countOrFormat: view.countOrFormat, offset: view.offset, length: view.length)
    }

    var description: String { "PT \(packetType) RC/FMT \(countOrFormat) @\(offset) len \(length)" }
}
