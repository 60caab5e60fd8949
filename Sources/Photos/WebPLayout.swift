/// The RIFF chunks at the start of a WebP file (the WebP container, RFC 9649), walked without
/// libwebp: what the header read needs to know before it asks libwebp for the size, and how far to
/// read for it. A simple file is "RIFF" size "WEBP" then one "VP8 " or "VP8L" chunk; an extended
/// one starts with "VP8X" (flags and the canvas size), then ICCP, ANIM/ANMF or ALPH with the image
/// chunk, then EXIF and XMP, which usually come after the image data, near the end of the file.
///
/// Pure, over any prefix of the file: every length is checked against the bytes there are, and
/// the walk takes at most one step per 8 bytes.
struct WebPLayout {
    /// RIFF size + 8: where the file ends by its own word.
    let declaredFileSize: Int
    /// The VP8X chunk's flags and canvas size, when the file is extended.
    let extended: (flags: UInt8, canvas: ImageSize)?
    /// The offset of the first chunk of the image itself (VP8, VP8L, ALPH, ANIM or ANMF).
    let imageChunkOffset: Int?
    /// The first EXIF chunk: its header's offset and the payload's declared size.
    let exifChunk: (offset: Int, size: Int)?
    /// Where the walk stopped because the bytes ran out: the next chunk header's offset (nil: it
    /// reached the end of the RIFF data, or a chunk longer than the RIFF data).
    let walkEnd: Int?

    static let headerSize = 12
    /// VP8X flag bits (RFC 9649 §2.7).
    static let iccFlag: UInt8 = 0x20
    static let exifFlag: UInt8 = 0x08
    /// Of an EXIF chunk, what the header read reads at most: IFD0, where the orientation is,
    /// comes first.
    static let exifReadBound = 64 * 1024
    /// After the image chunk's header, what libwebp's WebPGetFeatures reads of the bitstream (a
    /// VP8 frame header is 10 bytes, VP8L's 5), with room.
    static let imageHeaderBytes = 64

    /// "RIFF" ???? "WEBP".
    static func isWebP(_ start: ArraySlice<UInt8>) -> Bool {
        start.count >= headerSize && start.prefix(4).elementsEqual("RIFF".utf8)
            && start.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    /// The layout of `bytes`, the first bytes of a file (or all of it) that `isWebP` claims.
    init(parsing bytes: [UInt8]) {
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func u24(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
        func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= Self.headerSize else {
            declaredFileSize = 0; extended = nil; imageChunkOffset = nil; exifChunk = nil; walkEnd = nil
            return
        }
        declaredFileSize = u32(4) + 8
        var extended: (UInt8, ImageSize)?
        var image: Int?
        var exif: (Int, Int)?
        var offset = Self.headerSize
        var stopped: Int?
        while offset < declaredFileSize {
            guard offset + 8 <= bytes.count else { stopped = offset; break }
            let name = fourCC(offset), size = u32(offset + 4)
            let payload = offset + 8
            switch name {
            case "VP8X" where offset == Self.headerSize && size >= 10 && payload + 10 <= bytes.count:
                extended = (bytes[payload], ImageSize(width: u24(payload + 4) + 1, height: u24(payload + 7) + 1))
            case "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF":
                if image == nil { image = offset }
            case "EXIF":
                if exif == nil { exif = (offset, size) }
            default:
                break
            }
            // The next chunk: the payload and its pad byte. No overflow: size < 2^32.
            let next = payload + size + (size & 1)
            guard next <= declaredFileSize else { break }  // longer than the file says it is: libwebp judges
            offset = next
        }
        self.extended = extended.map { (flags: $0.0, canvas: $0.1) }
        imageChunkOffset = image
        exifChunk = exif.map { (offset: $0.0, size: $0.1) }
        walkEnd = stopped
    }

    /// How many first bytes the header read needs, when the ones walked are not enough: the image
    /// chunk's header and the start of its bitstream, and when the VP8X flags say there is an
    /// EXIF chunk, that chunk (its first `exifReadBound` bytes). Nil when the walked bytes hold
    /// all of it, or hold all there is.
    func bytesWanted(have count: Int) -> Int? {
        var wanted = 0
        if let image = imageChunkOffset {
            wanted = image + 8 + Self.imageHeaderBytes
        } else if let walkEnd {
            wanted = walkEnd + 8 + Self.imageHeaderBytes
        }
        if let flags = extended?.flags, flags & Self.exifFlag != 0 {
            if let exif = exifChunk {
                wanted = max(wanted, exif.offset + 8 + min(exif.size, Self.exifReadBound))
            } else if let walkEnd {
                wanted = max(wanted, walkEnd + 8)
            }
        }
        wanted = min(wanted, declaredFileSize)
        return wanted > count ? wanted : nil
    }

    /// The EXIF chunk's payload within `bytes` (those walked), cut to the bytes there are; nil
    /// when it is declared over `MetadataBounds.exifBytes` (not read).
    func exifPayload(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let exif = exifChunk, exif.size <= MetadataBounds.exifBytes + EXIF.app1Header.count else { return nil }
        let start = exif.offset + 8
        guard start <= bytes.count else { return nil }
        return bytes[start..<min(bytes.count, start + exif.size)]
    }
}
