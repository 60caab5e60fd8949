import Linux

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

    /// An APP2 "ICC_PROFILE" segment: one chunk of the embedded ICC profile (ICC.1, annex B.4).
    struct ICCChunk: Equatable {
        /// 1-based position among `count` chunks, as the file says (unchecked).
        var sequence: UInt8
        var count: UInt8
        /// The chunk's profile bytes (after the 14-byte header).
        var data: Range<Int>
    }

    var frame: Frame?
    /// The ICC profile's chunks before the first scan, in file order; at most `maxICCChunks` (a
    /// profile has at most 255), the rest counted in `skippedICCChunks`.
    var iccChunks: [ICCChunk] = []
    static let maxICCChunks = 255
    var skippedICCChunks = 0
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
            if marker == 0xE2, payload.starts(with: Self.iccSignature), payload.count >= Self.iccSignature.count + 2 {
                if iccChunks.count < Self.maxICCChunks {
                    let p = payload.startIndex + Self.iccSignature.count
                    iccChunks.append(ICCChunk(sequence: payload[p], count: payload[p + 1],
                                              data: (p + 2 - base)..<(segmentEnd - base)))
                } else {
                    skippedICCChunks += 1
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

    /// "ICC_PROFILE" and its NUL: the start of an APP2 segment holding a chunk of an ICC profile.
    static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// The largest ICC profile a JPEG may embed here: every container's (`MetadataBounds`).
    static let maxICCProfileBytes = MetadataBounds.iccBytes

    /// Why a JPEG's ICC chunks do not make a profile.
    enum ICCProblem: Error, Equatable, CustomStringConvertible {
        case inconsistentCount
        case badSequence(UInt8, count: UInt8)
        case duplicate(UInt8)
        case missing([UInt8], count: UInt8)
        case tooManyChunks
        case tooLarge(bytes: Int)

        var description: String {
            switch self {
            case .inconsistentCount: "its ICC profile's APP2 chunks disagree on how many there are"
            case let .badSequence(sequence, count): "its ICC profile has a chunk numbered \(sequence) of \(count)"
            case let .duplicate(sequence): "its ICC profile's chunk \(sequence) appears twice"
            case let .missing(sequences, count):
                "its ICC profile lacks chunk\(sequences.count == 1 ? "" : "s") "
                    + sequences.prefix(8).map(String.init).joined(separator: ", ") + (sequences.count > 8 ? "..." : "") + " of \(count)"
            case .tooManyChunks: "its ICC profile has more than \(JPEGLayout.maxICCChunks) APP2 chunks"
            case let .tooLarge(bytes): "its ICC profile is over \(ByteCount(JPEGLayout.maxICCProfileBytes)) (\(bytes) bytes)"
            }
        }
    }

    /// The embedded ICC profile, its chunks joined in sequence order from `bytes` (the bytes this
    /// layout was parsed from); nil when there is none. Chunks missing, repeated or numbered past
    /// their count, or a profile over `maxICCProfileBytes`, give the problem instead: the photo is
    /// then shown unconverted, with a warning.
    func iccProfile(in bytes: ArraySlice<UInt8>) -> Result<[UInt8], ICCProblem>? {
        guard let first = iccChunks.first else { return nil }
        guard skippedICCChunks == 0 else { return .failure(.tooManyChunks) }
        let count = first.count
        var bySequence = [Range<Int>?](repeating: nil, count: Int(count))
        var total = 0
        for chunk in iccChunks {
            guard chunk.count == count else { return .failure(.inconsistentCount) }
            guard chunk.sequence >= 1, chunk.sequence <= count else { return .failure(.badSequence(chunk.sequence, count: count)) }
            guard bySequence[Int(chunk.sequence) - 1] == nil else { return .failure(.duplicate(chunk.sequence)) }
            bySequence[Int(chunk.sequence) - 1] = chunk.data
            total += chunk.data.count
        }
        let missing = bySequence.indices.filter { bySequence[$0] == nil }.map { UInt8($0 + 1) }
        guard missing.isEmpty else { return .failure(.missing(missing, count: count)) }
        guard total <= Self.maxICCProfileBytes else { return .failure(.tooLarge(bytes: total)) }
        var profile = [UInt8]()
        profile.reserveCapacity(total)
        let base = bytes.startIndex
        for case let range? in bySequence { profile += bytes[(base + range.lowerBound)..<(base + range.upperBound)] }
        return .success(profile)
    }

    /// SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
