import CSpng

/// One libspng decoding context over a PNG file held in memory: the only place Photos calls
/// libspng. It owns the spng_ctx and bounds what libspng may allocate: an image no larger than the
/// header Vitrine checked, chunks no longer than the file, cached chunk data (iCCP, text, eXIf,
/// inflated) no more than `chunkCacheLimit` or the file's size. Errors are libspng's codes;
/// `PNGDecoder` words them. libspng reads the caller's bytes in place: a reader lives only inside
/// `reading(_:limit:_:)`.
final class SpngReader {
    /// What libspng may hold of ancillary chunks, inflated (ICC profiles, text): a few megabytes,
    /// whatever a zTXt or iCCP chunk inflates to.
    static let chunkCacheLimit = 8 << 20

    struct Failure: Error {
        let call: String
        let code: Int32
        var message: String { String(cString: spng_strerror(code)) }
        var isEndOfData: Bool { code == SPNG_IO_EOF.rawValue || code == Int32(SPNG_EOF.rawValue) }
    }

    private let context: OpaquePointer

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
        try check("spng_set_image_limits",
                  spng_set_image_limits(context, UInt32(clamping: max(1, limit.width)), UInt32(clamping: max(1, limit.height))))
        // No chunk longer than the file; no more cached (inflated) chunk data than chunkCacheLimit,
        // or the file's size when it is larger (libspng refuses a cache limit below the chunk limit).
        let chunkLimit = min(max(1, bytes.count), Int(Int32.max))
        try check("spng_set_chunk_limits", spng_set_chunk_limits(context, chunkLimit, max(chunkLimit, Self.chunkCacheLimit)))
        try check("spng_set_png_buffer", spng_set_png_buffer(context, bytes.baseAddress, bytes.count))
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

    /// The embedded ICC profile (iCCP, inflated by libspng), if any. Valid after decoding started.
    func iccProfile() -> [UInt8]? {
        var iccp = spng_iccp()
        guard spng_get_iccp(context, &iccp) == 0, let profile = iccp.profile, iccp.profile_len > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: profile, count: iccp.profile_len))
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
    /// that ends after whole image data (no IEND) is shown, as other viewers show it.
    private func finish() throws(Failure) {
        let status = spng_decode_chunks(context)
        let failure = Failure(call: "spng_decode_chunks", code: status)
        guard status == 0 || failure.isEndOfData else { throw failure }
    }

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
