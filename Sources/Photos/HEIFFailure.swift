import CHeif

/// libheif's `heif_error` as a `PhotoError`: what the file's problem is where libheif's code says
/// it (a file that ends inside its boxes, a feature libheif does not have), else libheif's own
/// message as the reason the file is corrupt.
struct HEIFFailure {
    /// "HEIF" or "AVIF", for the message.
    let format: String
    let path: String
    /// Reading the boxes (a cut file is a truncated header) or decoding the pixels (a cut file
    /// is corrupt image data).
    enum Stage { case header, decode }
    let stage: Stage
    /// The input read through, whose own read error explains a failed read best.
    var input: HEIFInput?
    /// The side libheif was told to refuse items at (`HEIFContext`), for the message of a refusal.
    var maxSide: Int?

    func check(_ error: heif_error) throws(PhotoError) {
        guard error.code != heif_error_Ok else { return }
        if let readError = input?.readError { throw readError }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        throw PhotoError(path: path, reason: reason(code: error.code, subcode: error.subcode, message: message))
    }

    func reason(code: heif_error_code, subcode: heif_suberror_code, message: String) -> PhotoError.Reason {
        switch (code, subcode) {
        case (heif_error_Invalid_input, heif_suberror_End_of_data) where stage == .header:
            return .truncatedHeader
        case (heif_error_Unsupported_feature, _), (heif_error_Unsupported_filetype, _):
            return .unsupported(format: format, message)
        case (heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded):
            return .unsupported(format: format, limitMessage(message))
        default:
            return .corrupt(format: format, message)
        }
    }

    /// libheif files a refusal by one of its limits under "Memory allocation error", which reads as
    /// if the kiosk ran out of memory: the message says which limit it is, and whose. The side
    /// limit is Vitrine's where photos.max_megapixels allows no longer side than libheif's own.
    func limitMessage(_ message: String) -> String {
        var text = message
        let generic = "Memory allocation error: "
        if text.hasPrefix(generic) { text.removeFirst(generic.count) }
        guard text.contains("maximum image size"), let maxSide else { return "over libheif's limit: \(text)" }
        if maxSide < HEIFContainerDecoder.libheifMaxSide {
            return "over the limit: \(text) (sides of \(maxSide) pixels and more cannot fit photos.max_megapixels)"
        }
        return "over libheif's limit: \(text) (libheif reads no side of \(maxSide) pixels or more)"
    }

    func fail(_ reason: PhotoError.Reason) -> PhotoError { PhotoError(path: path, reason: reason) }
}
