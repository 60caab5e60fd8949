import Blitter
@testable import Photos
import Testing

/// APP1 payloads built by hand: "Exif\0\0", a TIFF header in either byte order, and IFD0.
private func exifPayload(bigEndian: Bool, entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)],
                         ifdOffset: UInt32 = 8, entryCount: UInt16? = nil, magic: UInt16 = 42) -> [UInt8] {
    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    tiff += u16(magic) + u32(ifdOffset)
    tiff += u16(entryCount ?? UInt16(entries.count))
    for entry in entries {
        tiff += u16(entry.tag) + u16(entry.type) + u32(entry.count)
        // A SHORT value sits in the first two bytes of the value field, in the file's byte order.
        tiff += entry.type == 3 ? u16(UInt16(entry.value)) + [0, 0] : u32(entry.value)
    }
    tiff += u32(0)  // no next IFD
    return Array("Exif".utf8) + [0, 0] + tiff
}

private let otherTags: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = [
    (0x010F, 2, 4, 0x4142_4300),  // Make, inline ASCII
    (0x0110, 2, 4, 0x4445_4600),  // Model
]

@Suite struct EXIFTests {
    @Test(arguments: [false, true])
    func readsOrientationInBothByteOrders(bigEndian: Bool) {
        for value in 1...8 {
            let payload = exifPayload(bigEndian: bigEndian, entries: otherTags + [(0x0112, 3, 1, UInt32(value))])
            #expect(EXIF.orientationValue(app1Payload: payload[...]) == value)
        }
    }

    @Test func byteOrderMatters() {
        // The same value bytes read in the other order would be 0x0600, not 6.
        var payload = exifPayload(bigEndian: false, entries: [(0x0112, 3, 1, 6)])
        #expect(EXIF.orientationValue(app1Payload: payload[...]) == 6)
        payload[6] = 0x4D; payload[7] = 0x4D
        #expect(EXIF.orientationValue(app1Payload: payload[...]) != 6)
    }

    @Test(arguments: [false, true])
    func everyTruncationIsSafe(bigEndian: Bool) {
        let payload = exifPayload(bigEndian: bigEndian, entries: otherTags + [(0x0112, 3, 1, 6)])
        // The orientation entry ends 4 bytes (next-IFD offset) before the end; its SHORT value is in
        // the first 2 bytes of the 4-byte value field.
        let entryEnd = payload.count - 4
        for length in 0..<payload.count {
            let value = EXIF.orientationValue(app1Payload: payload[..<length])
            #expect(value == (length >= entryEnd - 2 ? 6 : nil), "length \(length)")
        }
    }

    @Test func lyingOffsetsAndCountsGiveNothing() {
        let entry: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = [(0x0112, 3, 1, 6)]
        for offset: UInt32 in [0, 1, 7, 200, 0x7FFF_FFFF, 0xFFFF_FFFF] {
            #expect(EXIF.orientationValue(app1Payload: exifPayload(bigEndian: true, entries: entry, ifdOffset: offset)[...]) == nil)
        }
        // 65535 entries claimed, one present: reads the one, stops at the end of the data.
        let many = exifPayload(bigEndian: false, entries: otherTags, entryCount: 0xFFFF)
        #expect(EXIF.orientationValue(app1Payload: many[...]) == nil)
        // A value count of 0 is not a value.
        #expect(EXIF.orientationValue(app1Payload: exifPayload(bigEndian: false, entries: [(0x0112, 3, 0, 6)])[...]) == nil)
    }

    @Test func rejectsWhatIsNotEXIF() {
        var payload = exifPayload(bigEndian: false, entries: [(0x0112, 3, 1, 3)])
        #expect(EXIF.orientationValue(app1Payload: exifPayload(bigEndian: false, entries: [(0x0112, 3, 1, 3)], magic: 43)[...]) == nil)
        payload[0] = UInt8(ascii: "X")  // "Xxif": XMP or another APP1
        #expect(EXIF.orientationValue(app1Payload: payload[...]) == nil)
        var order = exifPayload(bigEndian: false, entries: [(0x0112, 3, 1, 3)])
        order[6] = 0x49; order[7] = 0x4D  // "IM"
        #expect(EXIF.orientationValue(app1Payload: order[...]) == nil)
    }

    @Test func invalidValuesMeanNormal() {
        for value: UInt32 in [0, 9, 0xFFFF] {
            let payload = exifPayload(bigEndian: true, entries: [(0x0112, 3, 1, value)])
            let read = EXIF.orientationValue(app1Payload: payload[...])
            #expect(read == Int(value))
            #expect(Orientation(exifValue: read ?? 1) == .normal)
        }
    }

    @Test func layoutFindsEXIFFrameAndScan() {
        let exif = exifPayload(bigEndian: true, entries: [(0x0112, 3, 1, 8)])
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg += [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        jpeg += [0x12, 0x34]  // junk between segments, as some writers leave
        jpeg += [0xFF, 0xC0, 0x00, 0x0B, 8, 0x00, 0x30, 0x00, 0x40, 1, 1, 0x11, 0]  // 64x48, 1 component
        jpeg += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0]
        let scanStart = jpeg.count
        jpeg += [0xAB, 0xCD, 0xFF, 0xD9]
        let layout = JPEGLayout(parsing: jpeg[...])
        #expect(layout.orientation == .rotate270)
        #expect(layout.frame == JPEGLayout.Frame(marker: 0xC0, precision: 8, width: 64, height: 48, components: 1,
                                                samplingFactors: [0x11]))
        #expect(layout.firstScanComponents == 1)
        #expect(layout.coefficientBufferBytes == 0)
        #expect(layout.stop == .startOfScan(dataOffset: scanStart))
        // Cut anywhere before the scan data: the walk asks for more bytes, never reads past the end.
        for length in 2..<scanStart {
            guard case let .endOfData(needed) = JPEGLayout(parsing: jpeg[..<length]).stop else {
                Issue.record("length \(length): \(JPEGLayout(parsing: jpeg[..<length]).stop)")
                continue
            }
            #expect(needed > length)
        }
    }
}

@Suite struct OrientationTests {
    /// Stored 3x2:  a b c / d e f
    let stored = Bitmap(width: 3, height: 2, stride: 3, pixels: [1, 2, 3, 4, 5, 6])

    @Test func sizes() {
        let size = ImageSize(width: 1800, height: 1200)
        for orientation in Orientation.allCases {
            #expect(orientation.orientedSize(size) == (orientation.rawValue >= 5 ? ImageSize(width: 1200, height: 1800) : size))
            #expect(orientation.storedSize(orientation.orientedSize(size)) == size)
        }
    }

    @Test func pixelTransforms() {
        let expected: [Orientation: (Int, Int, [UInt32])] = [
            .normal: (3, 2, [1, 2, 3, 4, 5, 6]),
            .flipHorizontal: (3, 2, [3, 2, 1, 6, 5, 4]),
            .rotate180: (3, 2, [6, 5, 4, 3, 2, 1]),
            .flipVertical: (3, 2, [4, 5, 6, 1, 2, 3]),
            .transpose: (2, 3, [1, 4, 2, 5, 3, 6]),
            .rotate90: (2, 3, [4, 1, 5, 2, 6, 3]),    // clockwise: the left column becomes the top row
            .transverse: (2, 3, [6, 3, 5, 2, 4, 1]),
            .rotate270: (2, 3, [3, 6, 2, 5, 1, 4]),   // counter-clockwise: the right column becomes the top row
        ]
        for (orientation, (width, height, pixels)) in expected {
            let out = orientation.apply(to: stored)
            #expect(out.width == width && out.height == height, "\(orientation)")
            #expect(out.pixels == pixels, "\(orientation)")
        }
    }
}
