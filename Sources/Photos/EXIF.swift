/// Reads the orientation from an EXIF block (the payload of an APP1 segment that starts with
/// "Exif\0\0"). Pure: no I/O. Every offset and count in the block is checked against its length,
/// and the walk is bounded by the entry count, so lying or truncated data gives nil, never a crash.
public enum EXIF {
    static let orientationTag: UInt16 = 0x0112
    static let typeShort: UInt16 = 3
    static let typeLong: UInt16 = 4

    /// The Orientation tag's value from IFD0, or nil when the block has none or is malformed.
    /// Values outside 1...8 are returned as they are; `Orientation(exifValue:)` decides what they mean.
    public static func orientationValue(app1Payload payload: ArraySlice<UInt8>) -> Int? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.count >= header.count, payload.prefix(header.count).elementsEqual(header) else { return nil }
        let tiff = Array(payload.dropFirst(header.count))
        guard tiff.count >= 8 else { return nil }

        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true   // "MM"
        default: return nil
        }
        let reader = Reader(bytes: tiff, bigEndian: bigEndian)
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4).map(Int.init),
              let count = reader.u16(at: ifd).map(Int.init) else { return nil }

        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = reader.u16(at: at), let type = reader.u16(at: at + 2),
                  let valueCount = reader.u32(at: at + 4) else { return nil }  // entries run past the end
            guard tag == orientationTag else { continue }
            guard valueCount >= 1 else { return nil }
            switch type {
            case typeShort: return reader.u16(at: at + 8).map(Int.init)
            case typeLong: return reader.u32(at: at + 8).map { Int(clamping: $0) }
            default: return nil
            }
        }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        let bigEndian: Bool

        func u16(at offset: Int) -> UInt16? {
            guard offset >= 0, offset <= bytes.count - 2 else { return nil }
            let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func u32(at offset: Int) -> UInt32? {
            guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
            return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
        }
    }
}
