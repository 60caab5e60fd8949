import CHeif

/// One libheif context: a HEIF or AVIF file's boxes parsed, read through its `HEIFInput`, which
/// it keeps alive (decoding reads the items' data through it). Freed with the last reference.
final class HEIFContext {
    let pointer: OpaquePointer
    let input: HEIFInput
    let failure: HEIFFailure

    /// The boxes of `input` parsed. `maxSide`: libheif refuses, while parsing, any item (tile,
    /// thumbnail, alpha or depth plane, not only the primary image) whose stored width or height
    /// reaches it.
    init(input: HEIFInput, maxSide: Int, failure: HEIFFailure) throws(PhotoError) {
        guard let pointer = heif_context_alloc() else {
            throw failure.fail(.corrupt(format: failure.format, "heif_context_alloc failed"))
        }
        self.pointer = pointer
        self.input = input
        var failure = failure
        failure.input = input
        failure.maxSide = maxSide
        self.failure = failure
        heif_context_set_maximum_image_size_limit(pointer, Int32(clamping: maxSide))
        let userData = Unmanaged.passUnretained(input).toOpaque()
        try failure.check(heif_context_read_from_reader(pointer, HEIFInput.reader, userData, nil))
    }

    deinit {
        heif_context_free(pointer)
    }

    /// The image the file says to show (pitm).
    func primaryImage() throws(PhotoError) -> HEIFImageHandle {
        var handle: OpaquePointer?
        try failure.check(heif_context_get_primary_image_handle(pointer, &handle))
        guard let handle else { throw failure.fail(.noImage) }
        return HEIFImageHandle(handle, context: self)
    }
}
