import Foundation

/// Reads tags from an EXIF block (the payload of an APP1 segment that starts with "Exif\0\0"):
/// the orientation, and for captions the ImageDescription and DateTimeOriginal. Pure: no I/O. Every
/// offset and count in the block is checked against its length, and each walk is bounded by the
/// entry count, so lying or truncated data gives nil (or `.malformed`), never a crash.
public enum EXIF {
    static let orientationTag: UInt16 = 0x0112
    static let imageDescriptionTag: UInt16 = 0x010E
    static let exifIFDTag: UInt16 = 0x8769
    static let dateTimeOriginalTag: UInt16 = 0x9003
    static let typeASCII: UInt16 = 2
    static let typeShort: UInt16 = 3
    static let typeLong: UInt16 = 4

    /// The Orientation tag's value from IFD0, or nil when the block has none or is malformed.
    /// Values outside 1...8 are returned as they are; `Orientation(exifValue:)` decides what they mean.
    public static func orientationValue(app1Payload payload: ArraySlice<UInt8>) -> Int? {
        guard let block = Block(app1Payload: payload), case let .found(entry)? = block.entry(orientationTag, inIFDAt: block.firstIFD) else {
            return nil
        }
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case typeShort: return block.reader.u16(at: entry.valueOffset).map(Int.init)
        case typeLong: return block.reader.u32(at: entry.valueOffset).map { Int(clamping: $0) }
        default: return nil
        }
    }

    /// `orientationValue(app1Payload:)` of a bare TIFF structure (a PNG eXIf chunk, a WebP EXIF
    /// chunk after its optional "Exif\0\0"), read in place.
    static func orientationValue(tiff: ArraySlice<UInt8>) -> Int? {
        guard let block = Block(tiff: tiff), case let .found(entry)? = block.entry(orientationTag, inIFDAt: block.firstIFD),
              entry.count >= 1 else { return nil }
        switch entry.type {
        case typeShort: return block.reader.u16(at: entry.valueOffset).map(Int.init)
        case typeLong: return block.reader.u32(at: entry.valueOffset).map { Int(clamping: $0) }
        default: return nil
        }
    }

    /// What a text tag holds: nothing (no EXIF block, no such tag), its text, or bytes that break the
    /// format (offsets past the end, a wrong type, text that is not UTF-8).
    enum Text: Equatable, Sendable {
        case absent
        case text(String)
        case malformed(String)
    }

    /// IFD0's ImageDescription, as a caption's description. What cameras write there by themselves
    /// ("OLYMPUS DIGITAL CAMERA", "SONY DSC", their make or model) is no caption.
    public static func imageDescription(app1Payload payload: ArraySlice<UInt8>) -> CaptionText {
        tiff(inApp1Payload: payload).map { imageDescription(tiff: $0) } ?? .absent
    }

    /// `imageDescription(app1Payload:)` of a bare TIFF structure (any format's EXIF block).
    public static func imageDescription(tiff: ArraySlice<UInt8>) -> CaptionText {
        guard let block = Block(tiff: tiff) else { return .absent }
        switch block.text(imageDescriptionTag, inIFDAt: block.firstIFD, name: "ImageDescription") {
        case .absent: return .absent
        case let .text(text):
            let camera = [makeTag, modelTag].compactMap { tag -> String? in
                guard case let .text(value) = block.text(tag, inIFDAt: block.firstIFD, name: "") else { return nil }
                return value
            }
            return isCameraDefault(text, camera: camera) ? .absent : .found(title: nil, description: text)
        case let .malformed(problem): return .malformed(problem)
        }
    }

    static let makeTag: UInt16 = 0x010F
    static let modelTag: UInt16 = 0x0110
    /// Descriptions cameras and phones fill in on their own (the ones digiKam and exiftool users
    /// meet most), compared without case and surrounding spaces.
    static let cameraDefaults: Set<String> = [
        "olympus digital camera", "sony dsc", "kodak digital still camera", "digital camera", "default",
        "exif_jpeg_picture", "leica digital camera", "minolta digital camera", "konica minolta digital camera",
        "pentax image", "samsung digital camera", "dcim", "image", "picture", "jpeg", "camera", "photo",
    ]

    static func isCameraDefault(_ description: String, camera: [String]) -> Bool {
        // Camera names are short; a long text is a caption (and is not lowered and hashed whole).
        guard description.utf8.count <= 256 else { return false }
        let text = description.trimmingCharacters(in: .whitespaces).lowercased()
        let names = camera.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return text.isEmpty || cameraDefaults.contains(text) || names.contains(text) || text == names.joined(separator: " ")
    }

    /// The Exif IFD's DateTimeOriginal ("YYYY:MM:DD HH:MM:SS"), as its fields.
    public static func dateTimeOriginal(app1Payload payload: ArraySlice<UInt8>) -> DateFields? {
        tiff(inApp1Payload: payload).flatMap { dateTimeOriginal(tiff: $0) }
    }

    /// `dateTimeOriginal(app1Payload:)` of a bare TIFF structure (any format's EXIF block).
    public static func dateTimeOriginal(tiff: ArraySlice<UInt8>) -> DateFields? {
        dateTimeOriginalText(tiff: tiff).flatMap(DateFields.init(exif:))
    }

    /// The Exif IFD's DateTimeOriginal as written, whether or not it is a date.
    static func dateTimeOriginalText(tiff: ArraySlice<UInt8>) -> String? {
        guard let block = Block(tiff: tiff),
              case let .found(pointer)? = block.entry(exifIFDTag, inIFDAt: block.firstIFD), pointer.type == typeLong,
              let offset = block.reader.u32(at: pointer.valueOffset),
              case let .text(value) = block.text(dateTimeOriginalTag, inIFDAt: Int(offset), name: "DateTimeOriginal") else {
            return nil
        }
        return value
    }

    static let app1Header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    /// The TIFF structure of a JPEG APP1 segment's payload, when it is an EXIF block.
    static func tiff(inApp1Payload payload: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        payload.starts(with: app1Header) ? payload.dropFirst(app1Header.count) : nil
    }

    struct Entry {
        let type: UInt16
        let count: Int
        /// Where the value's 4 bytes (or the offset of a longer value) are.
        let valueOffset: Int
    }

    enum Lookup {
        case found(Entry)
        case missing
    }

    /// The TIFF structure inside the block.
    struct Block {
        let reader: Reader
        let firstIFD: Int

        init?(app1Payload payload: ArraySlice<UInt8>) {
            guard let tiff = EXIF.tiff(inApp1Payload: payload) else { return nil }
            self.init(tiff: tiff)
        }

        init?(tiff slice: ArraySlice<UInt8>) {
            let tiff = Array(slice)
            guard tiff.count >= 8 else { return nil }
            let bigEndian: Bool
            switch (tiff[0], tiff[1]) {
            case (0x49, 0x49): bigEndian = false  // "II"
            case (0x4D, 0x4D): bigEndian = true   // "MM"
            default: return nil
            }
            reader = Reader(bytes: tiff, bigEndian: bigEndian)
            guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4) else { return nil }
            firstIFD = Int(ifd)
        }

        /// The entry for `tag` in the IFD at `offset`; nil when the IFD runs past the end.
        func entry(_ tag: UInt16, inIFDAt offset: Int) -> Lookup? {
            guard let count = reader.u16(at: offset).map(Int.init) else { return nil }
            for index in 0..<count {
                let at = offset + 2 + index * 12
                guard let entryTag = reader.u16(at: at), let type = reader.u16(at: at + 2),
                      let valueCount = reader.u32(at: at + 4) else { return nil }  // entries run past the end
                if entryTag == tag { return .found(Entry(type: type, count: Int(valueCount), valueOffset: at + 8)) }
            }
            return .missing
        }

        /// An ASCII tag's text, its trailing NULs and spaces dropped.
        func text(_ tag: UInt16, inIFDAt offset: Int, name: String) -> Text {
            guard let lookup = entry(tag, inIFDAt: offset) else { return .malformed("EXIF IFD runs past the end of its block") }
            guard case let .found(entry) = lookup else { return .absent }
            guard entry.type == typeASCII else { return .malformed("EXIF \(name) has type \(entry.type), not ASCII") }
            let start: Int
            if entry.count <= 4 {
                start = entry.valueOffset
            } else if let offset = reader.u32(at: entry.valueOffset) {
                start = Int(offset)
            } else {
                return .malformed("EXIF \(name) runs past the end of its block")
            }
            guard start >= 0, entry.count <= reader.bytes.count, start <= reader.bytes.count - entry.count else {
                return .malformed("EXIF \(name) claims \(entry.count) bytes past the end of its block")
            }
            var bytes = reader.bytes[start..<(start + entry.count)]
            while let last = bytes.last, last == 0 || last == 0x20 { bytes = bytes.dropLast() }
            guard let text = String(validating: bytes, as: UTF8.self) else { return .malformed("EXIF \(name) is not UTF-8") }
            return .text(text)
        }
    }

    struct Reader {
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

/// A date and time as EXIF writes it, local to where the photo was taken (no time zone).
public struct DateFields: Equatable, Sendable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    /// "YYYY:MM:DD HH:MM:SS"; nil for anything else, for a day or time that does not exist
    /// (2023:02:30, 2023:13:01, 24:61:61), and for the all-zero date cameras write when they do
    /// not know it.
    public init?(exif text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0) }
        guard parts.count == 6, let y = parts[0], let mo = parts[1], let d = parts[2], let h = parts[3],
              let mi = parts[4], let s = parts[5], (1...9999).contains(y), (1...12).contains(mo),
              (1...Self.days(inMonth: mo, year: y)).contains(d),
              (0...23).contains(h), (0...59).contains(mi), (0...60).contains(s) else { return nil }
        self.init(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }

    /// The days of a month (1...12) of the proleptic Gregorian calendar.
    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// What cameras write when they do not know the date: all zeros, or blanks in place of the
    /// digits (EXIF 2.3 §4.6.5). Not a date, and not worth a warning.
    static func isUnknown(exif text: String) -> Bool {
        text.allSatisfy { $0 == "0" || $0 == " " || $0 == ":" }
    }
}
