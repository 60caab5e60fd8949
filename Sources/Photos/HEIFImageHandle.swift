import CHeif
import Colour

/// One image item of a HEIF context (the primary image, or a thumbnail of it), not yet decoded:
/// its displayed size, its alpha, bit depth and colour description, its thumbnails and metadata
/// items. Keeps its context alive; released with the last reference.
final class HEIFImageHandle {
    let pointer: OpaquePointer
    let context: HEIFContext

    init(_ pointer: OpaquePointer, context: HEIFContext) {
        self.pointer = pointer
        self.context = context
    }

    deinit {
        heif_image_handle_release(pointer)
    }

    /// The size as displayed: libheif applies the item's clap, irot and imir to the width and
    /// height it reports (a 1280x720 image with irot 90 is 720x1280), and decodes with them applied.
    var size: ImageSize {
        ImageSize(width: Int(heif_image_handle_get_width(pointer)), height: Int(heif_image_handle_get_height(pointer)))
    }

    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(pointer) != 0 }

    /// Bits per luma sample (8, 10, 12), or nil when the file does not say.
    var lumaBits: Int? {
        let bits = Int(heif_image_handle_get_luma_bits_per_pixel(pointer))
        return bits > 0 ? bits : nil
    }

    /// The item's thumbnails (iPhones write one of 320x240 beside a 48-tile grid).
    func thumbnails() -> [HEIFImageHandle] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(pointer))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(pointer, &ids, Int32(ids.count)))
        return ids.prefix(max(0, listed)).compactMap { id in
            var thumbnail: OpaquePointer?
            let error = heif_image_handle_get_thumbnail(pointer, id, &thumbnail)
            guard error.code == heif_error_Ok, let thumbnail else { return nil }
            return HEIFImageHandle(thumbnail, context: context)
        }
    }

    /// The metadata items of `type` ("Exif", "mime"), with their content type, whole, each read
    /// once; an item whose declared size is over `maxBytes(contentType)`, or over what is left of
    /// `remaining` (taken from it as items are read), is not read, and its content type and size
    /// are in `unread`.
    func metadata(type: String, maxBytes: (String) -> Int, remaining: inout Int,
                  unread: inout [(contentType: String, bytes: Int)]) -> [(contentType: String, bytes: [UInt8])] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(pointer, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: min(count, 64))
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(pointer, type, &ids, Int32(ids.count)))
        var items: [(contentType: String, bytes: [UInt8])] = []
        for id in ids.prefix(max(0, listed)) {
            let size = heif_image_handle_get_metadata_size(pointer, id)
            let contentType = heif_image_handle_get_metadata_content_type(pointer, id).map { String(cString: $0) } ?? ""
            guard size > 0 else { continue }
            guard size <= maxBytes(contentType), size <= remaining else {
                unread.append((contentType, size))
                continue
            }
            remaining -= size
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = heif_image_handle_get_metadata(pointer, id, buffer.baseAddress).code == heif_error_Ok ? size : 0
            }
            if bytes.count == size { items.append((contentType, bytes)) }
        }
        return items
    }

    /// The colour the item's colr box describes: an ICC profile, or nclx code points; nil when it
    /// has none (sRGB).
    var colour: ColourDescription? {
        switch heif_image_handle_get_color_profile_type(pointer) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let size = heif_image_handle_get_raw_color_profile_size(pointer)
            guard size > 0, size <= MetadataBounds.iccBytes else { return nil }
            var profile = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_raw_color_profile(pointer, &profile).code == heif_error_Ok else { return nil }
            return .icc(profile)
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let error = heif_image_handle_get_nclx_color_profile(pointer, &nclx)
            // libheif 1.15 allocates the profile before it checks the code points: an unknown one
            // is an error with a profile to free all the same (the heif fuzz target's first find).
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            guard error.code == heif_error_Ok, let nclx else { return nil }
            return .cicp(primaries: UInt16(truncatingIfNeeded: nclx.pointee.color_primaries.rawValue),
                         transfer: UInt16(truncatingIfNeeded: nclx.pointee.transfer_characteristics.rawValue),
                         matrix: UInt16(truncatingIfNeeded: nclx.pointee.matrix_coefficients.rawValue),
                         fullRange: nclx.pointee.full_range_flag != 0)
        default:
            return nil
        }
    }

    /// The item decoded, its transformations applied, to 8-bit interleaved RGB (RGBA with alpha):
    /// 10- and 12-bit images are converted to 8 bits by libheif.
    func decode(failure: HEIFFailure) throws(PhotoError) -> HEIFImage {
        guard let options = heif_decoding_options_alloc() else {
            throw failure.fail(.corrupt(format: failure.format, "heif_decoding_options_alloc failed"))
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try failure.check(heif_decode_image(pointer, &image, heif_colorspace_RGB, chroma, options))
        guard let image else { throw failure.fail(.noImageData) }
        return HEIFImage(image, alpha: hasAlpha)
    }
}
