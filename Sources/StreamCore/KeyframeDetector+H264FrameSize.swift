extension KeyframeDetector {
    /// The profiles whose sequence parameter set carries chroma format, bit depths and scaling
    /// matrices (ITU-T H.264 7.3.2.1.1).
    private static let h264HighProfiles: Set<UInt32> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// An H.264 keyframe's coded size, from the sequence parameter set the packet carries as a
    /// single NAL unit or inside a STAP-A (where browsers send it, in front of the IDR slice);
    /// nil for any other packet, a fragmented parameter set, or one that does not parse.
    static func h264FrameSize(_ payload: UnsafeRawBufferPointer) -> VideoFrameSize? {
        guard let header = payload.first else { return nil }
        switch header & 0x1F {
        case 7:
            return h264SequenceParameterSetSize(UnsafeRawBufferPointer(rebasing: payload[1...]))
        case 24:
            var offset = 1
            while offset + 2 <= payload.count {
                let size = Int(payload[offset]) << 8 | Int(payload[offset + 1])
                offset += 2
                guard size > 0, size <= payload.count - offset else { return nil }
                if payload[offset] & 0x1F == 7 {
                    return h264SequenceParameterSetSize(UnsafeRawBufferPointer(rebasing: payload[(offset + 1)..<(offset + size)]))
                }
                offset += size
            }
            return nil
        default:
            return nil
        }
    }

    /// Reads a sequence parameter set's payload (after its NAL header) up to the frame cropping,
    /// which is all the size needs.
    private static func h264SequenceParameterSetSize(_ bytes: UnsafeRawBufferPointer) -> VideoFrameSize? {
        var reader = H264BitReader(bytes, offset: 0)
        guard let profile = reader.bits(8), reader.bits(16) != nil, reader.unsignedExpGolomb() != nil else { return nil }
        var chromaFormat: UInt32 = 1
        if h264HighProfiles.contains(profile) {
            guard let format = reader.unsignedExpGolomb(), format <= 3 else { return nil }
            chromaFormat = format
            if format == 3, reader.bit() == nil { return nil }
            // Bit depths, the transform bypass flag, then the scaling matrices, if present.
            guard reader.unsignedExpGolomb() != nil, reader.unsignedExpGolomb() != nil, reader.bit() != nil, let matrices = reader.bit() else { return nil }
            if matrices == 1 {
                for list in 0..<(format == 3 ? 12 : 8) {
                    guard let present = reader.bit() else { return nil }
                    if present == 1, !skipScalingList(&reader, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard reader.unsignedExpGolomb() != nil, let pictureOrderType = reader.unsignedExpGolomb() else { return nil }
        switch pictureOrderType {
        case 0:
            guard reader.unsignedExpGolomb() != nil else { return nil }
        case 1:
            guard reader.bit() != nil, reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil, let cycle = reader.unsignedExpGolomb(),
                cycle <= 255
            else { return nil }
            for _ in 0..<cycle where reader.signedExpGolomb() == nil { return nil }
        case 2:
            break
        default:
            return nil
        }
        // max_num_ref_frames, gaps_in_frame_num_value_allowed_flag, then the size in macroblocks.
        guard reader.unsignedExpGolomb() != nil, reader.bit() != nil, let widthInMacroblocks = reader.unsignedExpGolomb(),
            let heightInMapUnits = reader.unsignedExpGolomb(), let frameMacroblocksOnly = reader.bit(), widthInMacroblocks < 1024,
            heightInMapUnits < 1024
        else { return nil }
        if frameMacroblocksOnly == 0, reader.bit() == nil { return nil }
        guard reader.bit() != nil, let cropping = reader.bit() else { return nil }
        var crop: (left: UInt32, right: UInt32, top: UInt32, bottom: UInt32) = (0, 0, 0, 0)
        if cropping == 1 {
            guard let left = reader.unsignedExpGolomb(), let right = reader.unsignedExpGolomb(), let top = reader.unsignedExpGolomb(),
                let bottom = reader.unsignedExpGolomb()
            else { return nil }
            crop = (left, right, top, bottom)
        }
        // Table 6-1: chroma subsampling, which sets the cropping units.
        let fieldFactor = 2 - Int(frameMacroblocksOnly)
        let (unitX, unitY) =
            switch chromaFormat {
            case 0: (1, fieldFactor)
            case 1: (2, 2 * fieldFactor)
            case 2: (2, fieldFactor)
            default: (1, fieldFactor)
            }
        let width = (Int(widthInMacroblocks) + 1) * 16 - unitX * (Int(crop.left) + Int(crop.right))
        let height = fieldFactor * (Int(heightInMapUnits) + 1) * 16 - unitY * (Int(crop.top) + Int(crop.bottom))
        guard (1..<(1 << 14)).contains(width), (1..<(1 << 14)).contains(height) else { return nil }
        return VideoFrameSize(width: width, height: height)
    }

    /// Moves past one scaling list (7.3.2.1.1.1): deltas until one makes the next scale 0.
    private static func skipScalingList(_ reader: inout H264BitReader, size: Int) -> Bool {
        var last: Int64 = 8
        var next: Int64 = 8
        for _ in 0..<size where next != 0 {
            guard let delta = reader.signedExpGolomb() else { return false }
            next = (last + delta + 256) % 256
            if next != 0 { last = next }
        }
        return true
    }
}
