import CSpng

/// One libspng decoding context over a PNG file held in memory: the only place Photos calls
/// libspng. It owns the spng_ctx and bounds what libspng may allocate: an image no larger than the
/// header Vitrine checked, and no metadata at all. libspng reads the file through `ChunkFilter`,
/// which shows it the chunks Vitrine reads itself (iCCP, tEXt, zTXt, iTXt, eXIf, sPLT) under a
/// private type it skips: libspng would otherwise inflate and keep them, and its limits on them
/// (1,000 chunks, the cache, the inflated size) fail the whole image, where a bad profile or
/// caption must lose only itself. Errors are libspng's codes; `PNGDecoder` words them. A reader
/// lives only inside `reading(_:limit:_:)`.
final class SpngReader {
    /// What libspng may still hold of ancillary chunks: none reach it (`ChunkFilter`), so this is
    /// a backstop, not a budget.
    static let chunkLimit = 64 * 1024

    struct Failure: Error {
        let call: String
        let code: Int32
        var message: String { String(cString: spng_strerror(code)) }
        var isEndOfData: Bool { code == SPNG_IO_EOF.rawValue || code == Int32(SPNG_EOF.rawValue) }
    }

    private let context: OpaquePointer
    private let filter: ChunkFilter

    /// `body` given a reader of `source`. `limit`: the width and height the checked header gave;
    /// libspng refuses any other image.
    static func reading<Result>(_ source: ArraySlice<UInt8>, limit: (width: Int, height: Int),
                                _ body: (SpngReader) throws -> Result) throws -> Result {
        try source.withUnsafeBytes { bytes in
            let reader = try SpngReader(bytes, limit: limit)
            return try withExtendedLifetime(reader) { try body(reader) }
        }
    }

    private init(_ bytes: UnsafeRawBufferPointer, limit: (width: Int, height: Int)) throws(Failure) {
        guard let context = spng_ctx_new(0) else { throw Failure(call: "spng_ctx_new", code: Int32(SPNG_EMEM.rawValue)) }
        self.context = context
        filter = ChunkFilter(bytes)
        try check("spng_set_image_limits",
                  spng_set_image_limits(context, UInt32(clamping: max(1, limit.width)), UInt32(clamping: max(1, limit.height))))
        try check("spng_set_chunk_limits", spng_set_chunk_limits(context, Self.chunkLimit, Self.chunkLimit))
        // A critical chunk (IHDR, PLTE, IDAT) whose CRC is wrong fails the image; an ancillary one
        // is dropped (those renamed by the filter among them).
        try check("spng_set_crc_action", spng_set_crc_action(context, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue)))
        try check("spng_set_png_stream",
                  spng_set_png_stream(context, ChunkFilter.read, Unmanaged.passUnretained(filter).toOpaque()))
    }

    deinit {
        spng_ctx_free(context)
    }

    private func check(_ call: String, _ status: Int32) throws(Failure) {
        guard status == 0 else { throw Failure(call: call, code: status) }
    }

    /// IHDR, as libspng reads and validates it (signature, CRC, bit depth for the colour type...).
    func header() throws(Failure) -> spng_ihdr {
        var ihdr = spng_ihdr()
        try check("spng_get_ihdr", spng_get_ihdr(context, &ihdr))
        return ihdr
    }

    /// The image as 8-bit RGBA rows (tRNS applied, no gamma), top to bottom: each row handed to
    /// `row` as it is decoded, so only one is held at a time. An interlaced image is decoded whole
    /// first (its passes fill the whole image), then handed over row by row.
    func decodeRows(width: Int, height: Int, interlaced: Bool, _ row: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        let rowBytes = width * 4
        let format = Int32(SPNG_FMT_RGBA8.rawValue), transparency = Int32(SPNG_DECODE_TRNS.rawValue)
        if interlaced {
            var size = 0
            try check("spng_decoded_image_size", spng_decoded_image_size(context, format, &size))
            guard size == rowBytes * height else { throw Failure(call: "spng_decoded_image_size", code: Int32(SPNG_EOVERFLOW.rawValue)) }
            let image = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { image.deallocate() }
            try check("spng_decode_image", spng_decode_image(context, image.baseAddress, size, format, transparency))
            for y in 0..<height { row(UnsafeRawBufferPointer(rebasing: image[y * rowBytes..<(y + 1) * rowBytes])) }
            try finish()
            return
        }
        try check("spng_decode_image",
                  spng_decode_image(context, nil, 0, format, transparency | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)))
        // spng_decode_row writes one row of the output format: width * 4 bytes of RGBA8.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes, alignment: 16)
        defer { buffer.deallocate() }
        for _ in 0..<height {
            let status = spng_decode_row(context, buffer.baseAddress, rowBytes)
            // SPNG_EOI comes with the last row.
            guard status == 0 || status == Int32(SPNG_EOI.rawValue) else { throw Failure(call: "spng_decode_row", code: status) }
            row(UnsafeRawBufferPointer(buffer))
            if status == Int32(SPNG_EOI.rawValue) { break }
        }
        try finish()
    }

    /// The chunks after the image data, to IEND: the last IDAT's CRC is checked only there. A file
    /// that ends after its last row (no IEND, or cut in the last IDAT's end) is shown, as other
    /// viewers show it, and said (`truncated`).
    private func finish() throws(Failure) {
        let status = spng_decode_chunks(context)
        let failure = Failure(call: "spng_decode_chunks", code: status)
        guard status == 0 || failure.isEndOfData else { throw failure }
        truncated = status != 0
    }

    /// True when the file ended after its last row but before IEND.
    private(set) var truncated = false

    /// What the decode holds besides its output, for an image `width` pixels wide: libspng's scanline
    /// buffers (up to 8 bytes a pixel for 16-bit RGBA: the current and previous scanline, the
    /// converted row), zlib's inflate state and window, the RGBA8 row and the downscale's sums;
    /// and for an interlaced image the whole RGBA8 image.
    static func workingBytes(width: Int, height: Int, interlaced: Bool) -> Int {
        let w = max(0, width)
        let rows = 3 * (8 * w + 1) + 4 * w + PNGRowReducer.sumBytesPerColumn * w + 48 * 1024
        guard interlaced else { return rows }
        let (image, overflow) = ImageSize(width: w, height: height).pixelCount.multipliedReportingOverflow(by: 4)
        let (total, overflowTotal) = rows.addingReportingOverflow(image)
        return overflow || overflowTotal ? .max : total
    }
}

extension SpngReader {
    /// libspng's stream of the file: its bytes as they are, but for the type of every chunk
    /// Vitrine reads itself (`hidden`), shown as `renamed`, an ancillary private type libspng
    /// skips (its CRC no longer matches: libspng drops it unread). Walks the chunk headers as
    /// libspng reads on, so it holds nothing but its place.
    final class ChunkFilter {
        static let hidden: [[UInt8]] = ["iCCP", "tEXt", "zTXt", "iTXt", "eXIf", "sPLT"].map { Array($0.utf8) }
        /// "vtIg": ancillary (v), private (t), reserved bit clear (I), safe to copy (g).
        static let renamed = Array("vtIg".utf8)

        private let bytes: UnsafeRawBufferPointer
        private var position = 0
        /// The offset of the next chunk header not yet passed (after the signature).
        private var nextChunk = PNGLayout.signature.count

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        static let read: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int32 = {
            _, user, destination, length in
            guard let user, let destination else { return SPNG_IO_ERROR.rawValue }
            return Unmanaged<ChunkFilter>.fromOpaque(user).takeUnretainedValue().copy(into: destination, length)
        }

        private func copy(into destination: UnsafeMutableRawPointer, _ length: Int) -> Int32 {
            guard length >= 0, length <= bytes.count - position else { return SPNG_IO_EOF.rawValue }
            guard length > 0, let base = bytes.baseAddress else { return 0 }
            destination.copyMemory(from: base + position, byteCount: length)
            let end = position + length
            // Each chunk header whose type lies in this read: rename it if hidden, then step over
            // the chunk once its type has been read (it may lie across two reads).
            while nextChunk + 8 <= bytes.count, nextChunk + 4 < end {
                let typeStart = nextChunk + 4
                let type = UnsafeRawBufferPointer(rebasing: bytes[typeStart..<typeStart + 4])
                if Self.hidden.contains(where: { $0.elementsEqual(type) }) {
                    for i in 0..<4 where typeStart + i >= position && typeStart + i < end {
                        destination.storeBytes(of: Self.renamed[i], toByteOffset: typeStart + i - position, as: UInt8.self)
                    }
                }
                guard typeStart + 4 <= end else { break }
                let length = bytes[nextChunk..<nextChunk + 4].reduce(0) { $0 << 8 | Int($1) }
                nextChunk += 12 + length  // at most 2^32 + 12 past: no overflow
            }
            position = end
            return 0
        }
    }
}
