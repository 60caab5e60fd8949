import CWebP

/// A libwebp call that failed: its name and its VP8StatusCode, told as a PhotoError a kiosk
/// integrator can read.
struct WebPStatus: Error, Equatable {
    let call: String
    let code: VP8StatusCode

    /// What the code means, in words.
    var message: String {
        switch code {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "invalid bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "the data ends early (truncated)"
        default: "status \(code.rawValue)"
        }
    }

    /// The reason a photo is refused for. Not enough data while reading the headers is a header
    /// that breaks off; anywhere else it is image data that does.
    func reason(inHeader: Bool) -> PhotoError.Reason {
        if inHeader && code == VP8_STATUS_NOT_ENOUGH_DATA { return .truncatedHeader }
        return .corrupt(format: WebPDecoder.formatName, "\(call): \(message)")
    }
}
