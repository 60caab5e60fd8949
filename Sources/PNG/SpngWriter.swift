import CSpng

/// One libspng encoding context writing to memory: the only place module PNG calls libspng. It
/// owns the spng_ctx; the file it makes is copied out and libspng's buffer freed.
final class SpngWriter {
    private let context: OpaquePointer

    init() throws(PNGError) {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw PNGError.compression(call: "spng_ctx_new", code: Int32(SPNG_EMEM.rawValue))
        }
        self.context = context
        try check("spng_set_option", spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1))
    }

    deinit {
        spng_ctx_free(context)
    }

    private func check(_ call: String, _ status: Int32) throws(PNGError) {
        guard status == 0 else { throw PNGError.compression(call: call, code: status) }
    }

    /// The PNG file of 8-bit RGB rows (`width` x 3 bytes each, no padding), deflated at
    /// `level` (zlib's 0-9) with the row filters `filters` (SPNG_FILTER_CHOICE_* bits) chosen per row.
    func encodeRGB(_ rgb: [UInt8], width: Int, height: Int, level: Int32, filters: Int32) throws(PNGError) -> [UInt8] {
        var ihdr = spng_ihdr(width: UInt32(width), height: UInt32(height), bit_depth: 8,
                             color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue),
                             compression_method: 0, filter_method: 0, interlace_method: 0)
        try check("spng_set_ihdr", spng_set_ihdr(context, &ihdr))
        try check("spng_set_option", spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, level))
        try check("spng_set_option", spng_set_option(context, SPNG_FILTER_CHOICE, filters))
        let status = rgb.withUnsafeBytes { pixels in
            spng_encode_image(context, pixels.baseAddress, pixels.count, Int32(SPNG_FMT_PNG.rawValue),
                              Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        try check("spng_encode_image", status)
        var length = 0, error: Int32 = 0
        guard let buffer = spng_get_png_buffer(context, &length, &error) else {
            throw PNGError.compression(call: "spng_get_png_buffer", code: error)
        }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
