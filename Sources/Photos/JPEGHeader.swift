/// What a JPEG's headers say, checked: a size within the limits and a decoder that accepts them.
public struct JPEGHeader: Equatable, Sendable {
    public enum ColorSpace: Equatable, Sendable {
        case gray, color
        /// CMYK or YCCK: decoded as CMYK and converted to RGB.
        case cmyk
    }

    /// Which decoder takes the file: TurboJPEG, or libjpeg for layouts TurboJPEG 2.1 refuses.
    enum Route: Equatable, Sendable {
        case turboJPEG, libjpeg
    }

    /// The size as stored in the frame header.
    public let storedSize: ImageSize
    public let orientation: Orientation
    public let colorSpace: ColorSpace
    /// A decoder warning about the headers (junk between segments); the image may still be fine.
    public let warning: String?
    var route: Route
    /// What the decoder holds for the whole image whatever the output size (see
    /// `JPEGLayout.coefficientBufferBytes`).
    public let coefficientBufferBytes: Int

    /// The format-neutral header the rest of Photos sees.
    var imageHeader: ImageHeader {
        ImageHeader(format: JPEGDecoder.formatName, storedSize: storedSize, orientation: orientation,
                    workingBytes: coefficientBufferBytes, warning: warning)
    }

    /// The displayed size, after the EXIF orientation.
    public var size: ImageSize { orientation.orientedSize(storedSize) }
}
