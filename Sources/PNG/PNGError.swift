/// Why a PNG could not be made. (Saving one throws the Linux layer's SystemError.)
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// PNG has no zero-sized images.
    case emptyImage(width: Int, height: Int)
    /// A zlib call failed with this return code.
    case compression(call: String, code: Int32)

    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            return "cannot encode a \(width)x\(height) image as PNG"
        case let .compression(call, code):
            return "PNG compression failed: \(call) returned \(code)"
        }
    }
}
