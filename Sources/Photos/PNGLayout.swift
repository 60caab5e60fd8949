import CZlib

/// The chunks of a PNG file as far as Vitrine reads them itself, before libspng sees the file: IHDR's
/// size (checked against the limits before libspng allocates anything), the eXIf chunk before the
/// image data or just before IEND (the orientation), and the metadata blocks captions read. Pure: no I/O, no CRC check
/// (libspng checks them when it decodes). Every length is checked against the bytes there are.
struct PNGLayout {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// At most this many eXIf and XMP chunks are kept (a file of a million tiny iTXt chunks holds
    /// no more memory than this many slices).
    static let maxMetadataChunks = 64
    /// "XML:com.adobe.xmp", the iTXt keyword XMP's specification gives PNG.
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    struct Header: Equatable {
        var width: Int, height: Int, bitDepth: Int, colourType: Int, interlaced: Bool
    }

    enum Stop: Equatable {
        /// The first IDAT chunk starts at this offset.
        case imageData(offset: Int)
        /// IEND (or no IDAT before it).
        case endOfImage
        /// The bytes end inside a chunk (or its header) that would need `needed` bytes in all.
        case endOfData(needed: Int)
        /// Not a PNG signature, or a chunk length past 2^31 - 1 at `offset`.
        case notPNG
        case badChunkLength(offset: Int)
    }

    private(set) var header: Header?
    /// IHDR was there but not 13 bytes long.
    private(set) var badHeaderLength = false
    private(set) var stop: Stop = .notPNG
    /// The EXIF Orientation of an eXIf chunk before the first IDAT; nil without one.
    private(set) var exifOrientation: Int?
    /// eXIf chunks (TIFF structures) and iTXt XMP packets, in file order, when `readingMetadata`.
    private(set) var exif: [ArraySlice<UInt8>] = []
    private(set) var xmp: [ArraySlice<UInt8>] = []
    private(set) var skippedMetadataChunks = 0
    /// Metadata chunks over their bound (`MetadataBounds`), not read: one line each.
    private(set) var unreadMetadata: [String] = []
    /// The first iCCP chunk before the image data: its data, and whether its CRC is right.
    private(set) var iccp: (data: ArraySlice<UInt8>, crcMatches: Bool)?

    /// Walks the chunks of `bytes` up to the first IDAT, or, `readingMetadata`, to IEND, keeping the
    /// metadata chunks wherever they are (they may follow the image data).
    init(parsing bytes: ArraySlice<UInt8>, readingMetadata: Bool = false) {
        guard bytes.starts(with: Self.signature) else {
            stop = bytes.count < Self.signature.count && Self.signature.starts(with: bytes)
                ? .endOfData(needed: Self.signature.count) : .notPNG
            return
        }
        var offset = bytes.startIndex + Self.signature.count
        var sawImageData = false
        while true {
            let relative = offset - bytes.startIndex
            guard bytes.endIndex - offset >= 8 else { stop = .endOfData(needed: relative + 8); return }
            let length = Self.bigEndian(bytes, at: offset)
            guard length <= Int(Int32.max) else { stop = .badChunkLength(offset: relative); return }
            let type = bytes[offset + 4..<offset + 8]
            let dataStart = offset + 8
            // The image data need not be there yet: the header is read without it.
            if header != nil, !readingMetadata, type.elementsEqual("IDAT".utf8) {
                stop = .imageData(offset: relative)
                return
            }
            // length <= 2^31 - 1: no overflow on a 64-bit Int.
            guard bytes.endIndex - dataStart >= length + 4 else {
                stop = .endOfData(needed: relative + 12 + length)
                return
            }
            let data = bytes[dataStart..<dataStart + length]
            if header == nil {
                guard type.elementsEqual("IHDR".utf8) else { stop = .endOfImage; return }
                guard length == 13 else { badHeaderLength = true; stop = .endOfImage; return }
                header = Header(width: Self.bigEndian(data, at: data.startIndex),
                                height: Self.bigEndian(data, at: data.startIndex + 4),
                                bitDepth: Int(data[data.startIndex + 8]), colourType: Int(data[data.startIndex + 9]),
                                interlaced: data[data.startIndex + 12] != 0)
            } else if type.elementsEqual("IDAT".utf8) {
                if !sawImageData { stop = .imageData(offset: relative) }
                sawImageData = true
                if !readingMetadata { return }
            } else if type.elementsEqual("IEND".utf8) {
                if !sawImageData { stop = .endOfImage }
                return
            } else if type.elementsEqual("eXIf".utf8) {
                // Over its bound, an eXIf chunk is not read, for its orientation either.
                if data.count > MetadataBounds.exifBytes {
                    if readingMetadata {
                        unreadMetadata.append(MetadataBounds.tooLarge("its eXIf chunk", declared: data.count,
                                                                      bound: MetadataBounds.exifBytes, kind: "EXIF"))
                    }
                } else {
                    let tiff = data.starts(with: EXIF.app1Header) ? data.dropFirst(EXIF.app1Header.count) : data
                    if !sawImageData, exifOrientation == nil { exifOrientation = EXIF.orientationValue(tiff: tiff) }
                    if readingMetadata { keep(tiff, in: \.exif) }
                }
            } else if type.elementsEqual("iCCP".utf8) {
                if !sawImageData, iccp == nil {
                    let stored = UInt32(truncatingIfNeeded: Self.bigEndian(bytes, at: dataStart + length))
                    iccp = (data, Self.crc(bytes[offset + 4..<dataStart + length]) == stored)
                }
            } else if readingMetadata, type.elementsEqual("iTXt".utf8), let packet = Self.xmpPacket(inITXt: data) {
                if packet.count > MetadataBounds.xmpBytes {
                    unreadMetadata.append(MetadataBounds.tooLarge("its iTXt XMP chunk", declared: packet.count,
                                                                  bound: MetadataBounds.xmpBytes, kind: "XMP"))
                } else {
                    keep(packet, in: \.xmp)
                }
            }
            offset = dataStart + length + 4
        }
    }

    /// How much of a file's end `trailingExifOrientation` looks at.
    static let tailBytes = 64 * 1024

    /// The EXIF Orientation of an eXIf chunk after the image data (ImageMagick writes it between
    /// the last IDAT and IEND), found in `tail`, the file's last bytes, without reading the image
    /// data: a chunk typed eXIf counts only when the chunks from it on lead exactly to an IEND that
    /// ends the file, so bytes inside compressed data that happen to spell "eXIf" are not taken for
    /// one. Bounded: at most `tailBytes` are looked at; an eXIf further from the end is not found.
    static func trailingExifOrientation(in tail: ArraySlice<UInt8>) -> Int? {
        let tail = tail.suffix(tailBytes)
        let type = Array("eXIf".utf8)
        // What each offset's chain came to, so that many candidates cost one walk in all (linear).
        var leads = [UInt8](repeating: 0, count: tail.count + 1)  // 0 unknown, 1 yes, 2 no
        var candidate = tail.startIndex
        while candidate + 12 <= tail.endIndex {
            defer { candidate += 1 }
            guard tail[candidate + 4..<candidate + 8].elementsEqual(type) else { continue }
            let length = bigEndian(tail, at: candidate)
            guard length <= tail.endIndex - candidate - 12,
                  leadsToTheEnd(tail, from: candidate + 12 + length, known: &leads) else { continue }
            let data = tail[candidate + 8..<candidate + 8 + length]
            let tiff = data.starts(with: EXIF.app1Header) ? data.dropFirst(EXIF.app1Header.count) : data
            return EXIF.orientationValue(tiff: tiff)
        }
        return nil
    }

    /// True when the chunks from `offset` on end with an empty IEND exactly at the end of `bytes`.
    /// `known[offset - startIndex]` holds what a walk from an offset came to.
    private static func leadsToTheEnd(_ bytes: ArraySlice<UInt8>, from start: Int, known: inout [UInt8]) -> Bool {
        var offset = start
        var path: [Int] = []
        var result = false
        while true {
            let seen = known[offset - bytes.startIndex]
            if seen != 0 { result = seen == 1; break }
            path.append(offset)
            guard bytes.endIndex - offset >= 12 else { break }
            let length = bigEndian(bytes, at: offset)
            guard length <= bytes.endIndex - offset - 12 else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) {
                result = length == 0 && offset + 12 == bytes.endIndex
                break
            }
            offset += 12 + length
        }
        for visited in path { known[visited - bytes.startIndex] = result ? 1 : 2 }
        return result
    }

    private mutating func keep(_ block: ArraySlice<UInt8>, in list: WritableKeyPath<PNGLayout, [ArraySlice<UInt8>]>) {
        if exif.count + xmp.count < Self.maxMetadataChunks {
            self[keyPath: list].append(block)
        } else {
            skippedMetadataChunks += 1
        }
    }

    /// The text of an iTXt chunk whose keyword is XMP's, when it is stored uncompressed (as the XMP
    /// specification asks; a compressed one is not read). iTXt: keyword, 0, compression flag,
    /// compression method, language tag, 0, translated keyword, 0, text.
    static func xmpPacket(inITXt data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard data.starts(with: xmpKeyword + [0]) else { return nil }
        var rest = data.dropFirst(xmpKeyword.count + 1)
        guard rest.count >= 2, rest[rest.startIndex] == 0 else { return nil }
        rest = rest.dropFirst(2)
        for _ in 0..<2 {  // the language tag and the translated keyword
            guard let end = rest.firstIndex(of: 0) else { return nil }
            rest = rest[(end + 1)...]
        }
        return rest
    }

    /// The CRC-32 PNG gives each chunk, over its type and data (zlib's).
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            UInt32(truncatingIfNeeded: crc32(0, raw.bindMemory(to: Bytef.self).baseAddress, uInt(clamping: raw.count)))
        }
    }

    /// The ICC profile of an iCCP chunk's data (keyword, NUL, compression method 0, zlib stream),
    /// inflated by Vitrine up to `MetadataBounds.iccBytes` (libspng never holds it); the reason
    /// when it cannot be used, naming the chunk and the bound.
    static func iccProfile(inICCP chunk: (data: ArraySlice<UInt8>, crcMatches: Bool)) -> Result<[UInt8], ICCPProblem> {
        guard chunk.crcMatches else { return .failure(.message("its iCCP chunk's CRC is wrong")) }
        let data = chunk.data
        guard let nul = data.prefix(80).firstIndex(of: 0), nul > data.startIndex, nul + 1 < data.endIndex,
              data[nul + 1] == 0 else {
            return .failure(.message("its iCCP chunk has no valid profile name and compression method"))
        }
        switch BoundedInflate.inflate(data[(nul + 2)...], limit: MetadataBounds.iccBytes) {
        case let .success(profile): return .success(profile)
        case .failure(.overBound):
            return .failure(.message("its iCCP chunk's profile inflates past the \(MetadataBounds.shown(MetadataBounds.iccBytes)) bound for ICC profiles"))
        case let .failure(failure): return .failure(.message("its iCCP chunk \(failure)"))
        }
    }

    struct ICCPProblem: Error, CustomStringConvertible {
        let description: String
        static func message(_ text: String) -> ICCPProblem { ICCPProblem(description: text) }
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
