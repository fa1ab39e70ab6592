/// Access to RTP header extension elements in the one-byte and two-byte forms of RFC 8285.
///
/// Elements are addressed by their local identifier as negotiated in SDP (`a=extmap`).
/// Nothing here allocates; lookups walk the extension block of the packet in place.
public enum RTPHeaderExtensions {
    /// The "defined by profile" value that marks one-byte elements.
    public static let oneByteProfile: UInt16 = 0xBEDE
    /// The "defined by profile" value that marks two-byte elements; the low 4 bits are
    /// application bits and are ignored.
    public static let twoByteProfile: UInt16 = 0x1000

    /// Whether the header carries an extension block in one of the RFC 8285 forms.
    public static func usesElementForm(_ header: RTPHeader) -> Bool {
        header.hasExtension
            && (header.extensionProfile == oneByteProfile
                || header.extensionProfile & 0xFFF0 == twoByteProfile)
    }

    /// The byte range of the data of the element with local identifier `id`, or nil when the
    /// packet has no such element.
    ///
    /// In the one-byte form identifiers are 1...14 and identifier 15 ends the walk; in the
    /// two-byte form they are 1...255. Zero bytes between elements are padding and skipped.
    /// An element whose stated length runs past the block ends the walk as well.
    public static func find(id: UInt8, in packet: UnsafeRawBufferPointer, header: RTPHeader) -> Range<Int>? {
        locate(id: id, in: packet, header: header)?.data
    }

    /// Changes the local identifier of the element identified by `from` to `to`, in place.
    ///
    /// Relays use this when the subscriber negotiated a different identifier for the same
    /// extension than the publisher. Only the first element with identifier `from` changes;
    /// the caller must avoid mapping onto an identifier still present in the packet.
    ///
    /// - Returns: true when an element was renumbered; false when none was found or `to`
    ///   is not a valid identifier for the form in use (1...14 one-byte, 1...255 two-byte).
    public static func renumber(
        in packet: UnsafeMutableRawBufferPointer,
        header: RTPHeader,
        from: UInt8,
        to: UInt8
    ) -> Bool {
        guard let element = locate(id: from, in: UnsafeRawBufferPointer(packet), header: header) else {
            return false
        }
        if element.isOneByte {
            guard to >= 1, to <= 14 else { return false }
            packet[element.idOffset] = (to << 4) | (packet[element.idOffset] & 0x0F)
        } else {
            guard to >= 1 else { return false }
            packet[element.idOffset] = to
        }
        return true
    }

    /// Reads an RFC 6464 client-to-mixer audio level element with identifier `id`.
    ///
    /// - Returns: the voice activity flag and the level in -dBov (0 loudest ... 127 silence),
    ///   or nil when the element is missing or empty.
    public static func audioLevel(
        in packet: UnsafeRawBufferPointer,
        header: RTPHeader,
        id: UInt8
    ) -> (voiceActivity: Bool, level: UInt8)? {
        guard let data = find(id: id, in: packet, header: header), !data.isEmpty else { return nil }
        let byte = packet[data.lowerBound]
        return (voiceActivity: byte & 0x80 != 0, level: byte & 0x7F)
    }

    /// Reads the transport-wide sequence number (draft-holmer-rmcat-transport-wide-cc-extensions-01
    /// section 2) of the element with identifier `id`: two bytes, network order.
    ///
    /// - Returns: the number, or nil when the element is missing or shorter than two bytes.
    @inline(__always)
    public static func transportWideSequenceNumber(
        in packet: UnsafeRawBufferPointer,
        header: RTPHeader,
        id: UInt8
    ) -> UInt16? {
        guard let data = find(id: id, in: packet, header: header), data.count >= 2 else { return nil }
        return packet.readUInt16(at: data.lowerBound)
    }

    /// Walks the extension block looking for `id`; returns where its identifier byte sits,
    /// where its data lies, and which form the block uses.
    static func locate(
        id: UInt8,
        in packet: UnsafeRawBufferPointer,
        header: RTPHeader
    ) -> (idOffset: Int, data: Range<Int>, isOneByte: Bool)? {
        guard id != 0, header.hasExtension else { return nil }
        let start = header.extensionOffset
        let end = start + header.extensionLength
        // The header may come from a different buffer than the one passed in; never trust it.
        guard start >= 0, end <= packet.count else { return nil }

        if header.extensionProfile == oneByteProfile {
            guard id <= 14 else { return nil }
            var position = start
            while position < end {
                let byte = packet[position]
                let elementID = byte >> 4
                if elementID == 0 {
                    // Padding; its length nibble carries no meaning.
                    position += 1
                    continue
                }
                if elementID == 15 { return nil }
                let dataStart = position + 1
                let dataEnd = dataStart + Int(byte & 0x0F) + 1
                guard dataEnd <= end else { return nil }
                if elementID == id {
                    return (position, dataStart..<dataEnd, true)
                }
                position = dataEnd
            }
            return nil
        }

        if header.extensionProfile & 0xFFF0 == twoByteProfile {
            var position = start
            while position < end {
                let elementID = packet[position]
                if elementID == 0 {
                    position += 1
                    continue
                }
                guard position + 2 <= end else { return nil }
                let dataStart = position + 2
                let dataEnd = dataStart + Int(packet[position + 1])
                guard dataEnd <= end else { return nil }
                if elementID == id {
                    return (position, dataStart..<dataEnd, false)
                }
                position = dataEnd
            }
            return nil
        }

        return nil
    }
}
