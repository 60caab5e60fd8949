/// What a walk over a JPEG's marker segments found, up to the first scan. Pure: no I/O.
///
/// The viewer reads only the start of each file when it scans the library; this walk says whether
/// the bytes read so far reach the image data, gives the frame size and EXIF orientation without
/// any decoder, and catches the cases a decoder reports badly (no frame at all, a scan header with
/// no data after it). Junk between segments is skipped as libjpeg does.
struct JPEGLayout: Equatable {
    struct Frame: Equatable {
        var marker: UInt8
        var precision: Int
        var width: Int
        var height: Int
        var components: Int
        /// Each component's sampling factors as stored, horizontal in the high nibble.
        var samplingFactors: [UInt8] = []

        /// SOF2, SOF6, SOF10, SOF14.
        var isProgressive: Bool { [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }
    }

    enum Stop: Equatable {
        /// The bytes do not start with the SOI marker.
        case notJPEG(UInt8, UInt8)
        /// The first scan header ends at this offset; entropy-coded data follows.
        case startOfScan(dataOffset: Int)
        /// End of image before any scan.
        case endOfImage
        /// The bytes ended; at least this many are needed to go on.
        case endOfData(needed: Int)
        /// A segment length below 2: nothing after it can be trusted.
        case badSegment(offset: Int)
    }

    /// An APP1 or APP13 segment (EXIF, XMP, the Photoshop block with IPTC): where its payload is.
    struct Segment: Equatable {
        var marker: UInt8
        var payload: Range<Int>
    }

    var frame: Frame?
    /// The APP1 and APP13 segments before the first scan (offsets from the start of the bytes):
    /// where captions are read from. At most `maxMetadataSegments`, a bound on the memory a file of
    /// nothing but empty segments takes (24 bytes each, 4 bytes of file); far more than any writer
    /// makes. Those past it are counted in `skippedMetadataSegments`, and the caption reader says so.
    var metadata: [Segment] = []
    static let maxMetadataSegments = 16_384
    var skippedMetadataSegments = 0
    /// The EXIF Orientation value of the first EXIF block, if any (may be outside 1...8).
    var exifOrientation: Int?
    /// How many components the first scan codes; fewer than the frame's means more scans follow.
    var firstScanComponents: Int?
    var stop: Stop

    var orientation: Orientation { Orientation(exifValue: exifOrientation ?? 1) }

    init(frame: Frame? = nil, exifOrientation: Int? = nil, stop: Stop) {
        self.frame = frame
        self.exifOrientation = exifOrientation
        self.stop = stop
    }

    init(parsing bytes: ArraySlice<UInt8>) {
        self.init(stop: .endOfData(needed: 2))
        let base = bytes.startIndex, end = bytes.endIndex
        guard bytes.count >= 2 else { return }
        guard bytes[base] == 0xFF, bytes[base + 1] == 0xD8 else {
            stop = .notJPEG(bytes[base], bytes[base + 1])
            return
        }
        var at = base + 2
        while true {
            // Find the next marker: skip junk up to an 0xFF, then any fill 0xFF bytes.
            while at < end, bytes[at] != 0xFF { at += 1 }
            while at < end, bytes[at] == 0xFF { at += 1 }
            guard at < end else {
                stop = .endOfData(needed: at - base + 2)
                return
            }
            let marker = bytes[at]
            at += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD8:
                continue  // stuffed zero (junk here), TEM, RSTn, a stray SOI: no length follows
            case 0xD9:
                stop = .endOfImage
                return
            default:
                break
            }
            guard at + 2 <= end else {
                stop = .endOfData(needed: at - base + 2)
                return
            }
            let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
            guard length >= 2 else {
                stop = .badSegment(offset: at - base)
                return
            }
            let segmentEnd = at + length
            if marker == 0xDA {
                if length > 2, at + 2 < end { firstScanComponents = Int(bytes[at + 2]) }
                stop = segmentEnd <= end ? .startOfScan(dataOffset: segmentEnd - base)
                                         : .endOfData(needed: segmentEnd - base)
                return
            }
            guard segmentEnd <= end else {
                // Two more bytes, so that the next marker can be read in the same pass.
                stop = .endOfData(needed: segmentEnd - base + 2)
                return
            }
            let payload = bytes[(at + 2)..<segmentEnd]
            if marker == 0xE1 || marker == 0xED {
                if metadata.count < Self.maxMetadataSegments {
                    metadata.append(Segment(marker: marker, payload: (at + 2 - base)..<(segmentEnd - base)))
                } else {
                    skippedMetadataSegments += 1
                }
            }
            if marker == 0xE1, exifOrientation == nil {
                exifOrientation = EXIF.orientationValue(app1Payload: payload)
            } else if Self.isStartOfFrame(marker), frame == nil, payload.count >= 6 {
                let p = payload.startIndex
                frame = Frame(marker: marker, precision: Int(payload[p]),
                              width: Int(payload[p + 3]) << 8 | Int(payload[p + 4]),
                              height: Int(payload[p + 1]) << 8 | Int(payload[p + 2]),
                              components: Int(payload[p + 5]))
                let components = Int(payload[p + 5])
                if payload.count >= 6 + 3 * components {
                    frame?.samplingFactors = (0..<components).map { payload[p + 7 + 3 * $0] }
                }
            }
            at = segmentEnd
        }
    }

    /// The whole-image coefficient buffer libjpeg keeps while it decodes a progressive image, or
    /// a sequential one coded in several scans: 64 two-byte coefficients per 8x8 block of every
    /// component, padded to whole MCUs, whatever the output scale (a 13 MP progressive 4:2:2 photo:
    /// 53 MB). 0 for a single-scan image, which is decoded one MCU row at a time.
    var coefficientBufferBytes: Int {
        guard let frame, frame.width > 0, frame.height > 0 else { return 0 }
        let isMultiScan = frame.isProgressive || (firstScanComponents.map { $0 < frame.components } ?? false)
        guard isMultiScan else { return 0 }
        // Missing or zero factors are read as 1x1, as for a grey image.
        let factors = (0..<max(frame.components, 1)).map { index -> (h: Int, v: Int) in
            let byte = index < frame.samplingFactors.count ? frame.samplingFactors[index] : 0x11
            return (max(1, Int(byte >> 4)), max(1, Int(byte & 0x0F)))
        }
        let maxH = factors.map(\.h).max()!, maxV = factors.map(\.v).max()!
        let mcuColumns = (frame.width + 8 * maxH - 1) / (8 * maxH)
        let mcuRows = (frame.height + 8 * maxV - 1) / (8 * maxV)
        return factors.reduce(0) { $0 + mcuColumns * $1.h * mcuRows * $1.v * 64 * 2 }
    }

    /// SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
