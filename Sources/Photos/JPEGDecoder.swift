import Blitter
import CJPEGShim
import CTurboJPEG

/// Reads JPEG headers and decodes JPEGs to upright bitmaps of an exact size. Owns one TurboJPEG
/// decompressor, which is not thread-safe: use one decoder per thread.
///
/// Bad input gives a `PhotoError`, never a crash, and sizes are checked against `maxMegapixels`
/// from the frame header before any pixel buffer exists. Decoding is scaled in the DCT domain to the
/// smallest TurboJPEG factor that covers the target, so a 12 MP photo is never held at full size.
public final class JPEGDecoder {
    public let maxMegapixels: Double
    /// SPEC §4's default for photos.max_file_megabytes.
    public static let defaultMaxFileMegabytes = DecodeOptions.defaultMaxFileMegabytes
    /// photos.max_file_megabytes: a larger file is refused when it is opened, before it is read.
    public let maxFileMegabytes: Int
    /// Replaced after a header read that failed (`renewedDecompressor`).
    private var handle: tjhandle
    private let scalingFactors: [ScalingFactor]


    public struct SetupError: Error, CustomStringConvertible {
        public let call: String
        public let message: String
        public var description: String { "\(call) failed: \(message)" }
    }

    public convenience init(options: DecodeOptions) throws {
        try self.init(maxMegapixels: options.maxMegapixels, maxFileMegabytes: options.maxFileMegabytes)
    }

    public init(maxMegapixels: Double = 100, maxFileMegabytes: Int = JPEGDecoder.defaultMaxFileMegabytes) throws {
        guard let handle = tjInitDecompress() else {
            throw SetupError(call: "tjInitDecompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
        self.maxMegapixels = maxMegapixels
        self.maxFileMegabytes = maxFileMegabytes
        var count: Int32 = 0
        if let factors = tjGetScalingFactors(&count), count > 0 {
            scalingFactors = (0..<Int(count)).map { ScalingFactor(num: Int(factors[$0].num), denom: Int(factors[$0].denom)) }
        } else {
            scalingFactors = [.one]
        }
    }

    deinit {
        tjDestroy(handle)
    }

    /// A fresh decompressor for `handle` after tjDecompressHeader3 failed with an error (the old one
    /// destroyed), or `handle` itself if none can be made. libjpeg-turbo 2.1 returns from that error
    /// without aborting the decompression, so the handle stays in the middle of a header: the next
    /// header read, of a sound file, fails with "two SOI markers", and so does every one after it
    /// until a tjDecompress2 happens to reset it. One file whose frame is past 65,500 pixels made
    /// every later photo take the libjpeg route, and every later thumbnail read a miss (issue #22).
    static func renewedDecompressor(_ handle: tjhandle) -> tjhandle {
        guard let fresh = tjInitDecompress() else { return handle }
        tjDestroy(handle)
        return fresh
    }

    // MARK: Header

    /// The checked header of the file at `path`, reading only as much of it as the headers need.
    public func readHeader(path: String) throws -> JPEGHeader {
        let file = try PhotoFile(path: path, maxMegabytes: maxFileMegabytes)
        defer { file.close() }
        return try readHeader(start: try file.readPrefix(PhotoDecoder.headerPrefix), file: file)
    }

    /// The checked header of `file`, whose first bytes `start` were read already.
    func readHeader(start: [UInt8], file: PhotoFile) throws -> JPEGHeader {
        let bytes = try file.readPrefix(from: start) { bytes in
            if case let .endOfData(needed) = JPEGLayout(parsing: bytes[...]).stop { return needed }
            return nil
        }
        return try header(of: bytes, layout: JPEGLayout(parsing: bytes[...]), fileSize: file.size, path: file.path)
    }

    /// The checked header of a whole JPEG file held in memory.
    public func readHeader(bytes: [UInt8], path: String) throws -> JPEGHeader {
        try header(of: bytes, layout: JPEGLayout(parsing: bytes[...]), fileSize: bytes.count, path: path)
    }

    /// `bytes` is the start of a file of `fileSize` bytes (or all of it).
    private func header(of bytes: [UInt8], layout: JPEGLayout, fileSize: Int, path: String) throws -> JPEGHeader {
        func fail(_ reason: PhotoError.Reason) -> PhotoError { PhotoError(path: path, reason: reason) }
        guard fileSize > 0 else { throw fail(.empty) }
        if case let .notJPEG(first, second) = layout.stop { throw fail(.unknownFormat(firstBytes: [first, second])) }
        if fileSize < 2 { throw fail(.unknownFormat(firstBytes: bytes)) }

        // The frame header's own numbers first: these are the cases that must cost nothing.
        if let frame = layout.frame {
            guard frame.width > 0, frame.height > 0 else {
                throw fail(.zeroSize(width: frame.width, height: frame.height))
            }
            try checkLimit(width: frame.width, height: frame.height, path: path)
            guard frame.precision == 8 else { throw fail(.unsupported(format: Self.formatName, "\(frame.precision)-bit samples")) }
        }
        switch layout.stop {
        case .endOfImage:
            throw fail(layout.frame == nil ? .noImage : .noImageData)
        case .endOfData:
            throw fail(.truncatedHeader)
        case let .badSegment(offset):
            throw fail(.corrupt(format: Self.formatName, "invalid marker segment length at byte \(offset)"))
        case let .startOfScan(dataOffset):
            // Nothing (or only EOI) after the scan header: there is no picture to show.
            if fileSize - dataOffset <= 2 { throw fail(.noImageData) }
        case .notJPEG:
            break  // handled above
        }

        // TurboJPEG, then libjpeg for what TurboJPEG 2.1 refuses (sampling layouts like 4:1:0).
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colorSpace: Int32 = -1
        let status = tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorSpace)
        var warning: String?
        var route = JPEGHeader.Route.turboJPEG
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            if isWarning, width > 0, height > 0, subsampling >= 0 {
                warning = message
            } else {
                route = .libjpeg
                if !isWarning { handle = Self.renewedDecompressor(handle) }
            }
        }
        let storedSize: ImageSize
        let space: JPEGHeader.ColorSpace
        switch route {
        case .turboJPEG:
            // TurboJPEG 2.1 answers "success" for a stream with tables but no frame, without
            // setting the outputs: the initial values show it.
            guard width > 0, height > 0 else { throw fail(.noImage) }
            storedSize = ImageSize(width: Int(width), height: Int(height))
            switch colorSpace {
            case Int32(TJCS_GRAY.rawValue): space = .gray
            case Int32(TJCS_CMYK.rawValue), Int32(TJCS_YCCK.rawValue): space = .cmyk
            default: space = .color
            }
        case .libjpeg:
            var info = vt_jpeg_info()
            let (result, message) = withMessageBuffer { buffer, size in
                vt_jpeg_read_header(bytes, UInt(bytes.count), 1, 1, &info, buffer, size)
            }
            guard result != VT_JPEG_ERROR else { throw fail(.corrupt(format: Self.formatName, message)) }
            if result == VT_JPEG_WARNING { warning = message }
            guard info.width > 0, info.height > 0 else { throw fail(.zeroSize(width: Int(info.width), height: Int(info.height))) }
            storedSize = ImageSize(width: Int(info.width), height: Int(info.height))
            space = info.is_cmyk != 0 ? .cmyk : (info.components == 1 ? .gray : .color)
        }
        try checkLimit(width: storedSize.width, height: storedSize.height, path: path)
        return JPEGHeader(storedSize: storedSize, orientation: layout.orientation, colorSpace: space,
                          warning: warning, route: route, coefficientBufferBytes: layout.coefficientBufferBytes)
    }

    private func checkLimit(width: Int, height: Int, path: String) throws {
        guard Double(width) * Double(height) <= maxMegapixels * 1e6 else {
            throw PhotoError(path: path, reason: .tooLarge(width: width, height: height, maxMegapixels: maxMegapixels))
        }
    }

    // MARK: Decoding

    /// The scaling factor a decode of an image stored at `stored` with `orientation` would use for
    /// a displayed `target` size.
    public func scalingFactor(stored: ImageSize, orientation: Orientation, target: ImageSize) -> ScalingFactor {
        ScalingFactor.smallestCovering(orientation.storedSize(target), from: stored, among: scalingFactors)
    }

    /// The photo at `path`, upright, resampled to exactly `target` (displayed orientation; callers
    /// keep the aspect ratio and the bound with `ImageSize.decodeTarget`).
    public func decode(path: String, to target: ImageSize) throws -> DecodedImage {
        let file = try PhotoFile(path: path, maxMegabytes: maxFileMegabytes)
        defer { file.close() }
        // Check the header before reading the rest: a bomb or a text file costs one small read.
        _ = try readHeader(start: try file.readPrefix(PhotoDecoder.headerPrefix), file: file)
        return try decode(bytes: try file.readAll(), path: path, to: target)
    }

    /// A whole JPEG file in memory, upright, resampled to exactly `target`.
    public func decode(bytes: [UInt8], path: String, to requested: ImageSize) throws -> DecodedImage {
        try decode(bytes: bytes, path: path, to: requested, route: nil)
    }

    /// `route` forces a decoder (tests compare the two).
    func decode(bytes: [UInt8], path: String, to requested: ImageSize, route: JPEGHeader.Route?) throws -> DecodedImage {
        let layout = JPEGLayout(parsing: bytes[...])
        var header = try header(of: bytes, layout: layout, fileSize: bytes.count, path: path)
        if let route { header.route = route }
        let target = ImageSize(width: max(1, requested.width), height: max(1, requested.height))
        // Targets come bounded from `ImageSize.decodeTarget`; whatever a caller asks, no buffer
        // is larger than photos.max_megapixels allows a photo to be.
        try checkLimit(width: target.width, height: target.height, path: path)
        let storedTarget = header.orientation.storedSize(target)
        let factor = ScalingFactor.smallestCovering(storedTarget, from: header.storedSize, among: scalingFactors)

        var (decoded, warning) = try header.route == .turboJPEG
            ? decodeWithTurboJPEG(bytes, header: header, factor: factor, path: path)
            : decodeWithLibjpeg(bytes, header: header, factor: factor, path: path)
        let decodedSize = ImageSize(width: decoded.width, height: decoded.height)
        warning = header.warning ?? warning

        if decodedSize != storedTarget {
            decoded = decoded.resized(width: storedTarget.width, height: storedTarget.height)
        }
        let bitmap = header.orientation.apply(to: decoded)
        var image = DecodedImage(bitmap: bitmap, header: header.imageHeader, scale: factor, decodedSize: decodedSize, warning: warning)
        Self.describeColour(of: &image, layout: layout, bytes: bytes, colorSpace: header.colorSpace)
        return image
    }

    /// The ICC profile a whole JPEG file embeds (its APP2 chunks joined), if it has a sound one.
    public static func iccProfile(in bytes: [UInt8]) -> [UInt8]? {
        guard case let .success(profile)? = JPEGLayout(parsing: bytes[...]).iccProfile(in: bytes[...]) else { return nil }
        return profile
    }

    /// The image's colour description from its ICC profile (APP2 chunks joined), or the warning
    /// when the chunks do not make one. Only for colour (YCbCr, RGB) JPEGs: a CMYK one's pixels
    /// were turned into RGB without its profile already, and a grey one's profile would need
    /// its one channel; both are shown as before.
    static func describeColour(of image: inout DecodedImage, layout: JPEGLayout, bytes: [UInt8],
                               colorSpace: JPEGHeader.ColorSpace) {
        guard colorSpace == .color, let profile = layout.iccProfile(in: bytes[...]) else { return }
        switch profile {
        case let .success(profile): image.colour = .icc(profile)
        case let .failure(problem): image.colourWarning = "\(problem)"
        }
    }

    private func decodeWithTurboJPEG(_ bytes: [UInt8], header: JPEGHeader, factor: ScalingFactor,
                                     path: String) throws -> (Bitmap, String?) {
        // tjDecompress2 writes pitch x TJSCALED(height) bytes: ScalingFactor.scale rounds up as
        // TJSCALED does, and the pitch is the scaled width's 4 bytes a pixel.
        let size = factor.scale(header.storedSize)
        var pixels = [UInt32](repeating: 0, count: size.width * size.height)
        let format = header.colorSpace == .cmyk ? TJPF_CMYK : TJPF_BGRX
        let status = pixels.withUnsafeMutableBytes { out in
            tjDecompress2(handle, bytes, UInt(bytes.count), out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                          Int32(size.width), Int32(size.width * 4), Int32(size.height), Int32(format.rawValue),
                          TJFLAG_LIMITSCANS)
        }
        var warning: String?
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, message))
            }
            warning = message
        }
        Self.finishPixels(&pixels, cmyk: header.colorSpace == .cmyk)
        return (Bitmap(width: size.width, height: size.height, stride: size.width, pixels: pixels), warning)
    }

    private func decodeWithLibjpeg(_ bytes: [UInt8], header: JPEGHeader, factor: ScalingFactor,
                                   path: String) throws -> (Bitmap, String?) {
        var info = vt_jpeg_info()
        let num = UInt32(factor.num), denom = UInt32(factor.denom)
        let (probe, probeMessage) = withMessageBuffer { buffer, size in
            vt_jpeg_read_header(bytes, UInt(bytes.count), num, denom, &info, buffer, size)
        }
        guard probe != VT_JPEG_ERROR else { throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, probeMessage)) }
        let size = ImageSize(width: Int(info.output_width), height: Int(info.output_height))
        guard !size.isEmpty, size.pixelCount <= header.storedSize.pixelCount else {
            throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, "libjpeg output size \(size) for a \(header.storedSize) image"))
        }
        var pixels = [UInt32](repeating: 0, count: size.pixelCount)
        let (result, message) = withMessageBuffer { buffer, messageSize in
            pixels.withUnsafeMutableBytes { out in
                vt_jpeg_decode(bytes, UInt(bytes.count), num, denom,
                               out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count,
                               &info, buffer, messageSize)
            }
        }
        guard result != VT_JPEG_ERROR else { throw PhotoError(path: path, reason: .corrupt(format: Self.formatName, message)) }
        Self.finishPixels(&pixels, cmyk: info.is_cmyk != 0)
        return (Bitmap(width: size.width, height: size.height, stride: size.width, pixels: pixels),
                result == VT_JPEG_WARNING ? message : nil)
    }

    /// Makes decoder output XRGB8888 with a zero X byte. BGRX bytes are 0xFFRRGGBB on little-endian;
    /// CMYK bytes are converted as libjpeg-turbo's djpeg does for Adobe (inverted) CMYK:
    /// R = C * K / 255, and so on.
    static func finishPixels(_ pixels: inout [UInt32], cmyk: Bool) {
        if cmyk {
            for i in pixels.indices {
                let value = UInt32(littleEndian: pixels[i])  // bytes C, M, Y, K in memory order
                let c = value & 0xFF, m = value >> 8 & 0xFF, y = value >> 16 & 0xFF, k = value >> 24
                pixels[i] = ((c * k + 127) / 255) << 16 | ((m * k + 127) / 255) << 8 | (y * k + 127) / 255
            }
        } else {
            for i in pixels.indices { pixels[i] = UInt32(littleEndian: pixels[i]) & 0x00FF_FFFF }
        }
    }
}

extension JPEGDecoder: ImageDecoder {
    static var formatName: String { "JPEG" }
    static var fileExtensions: [String] { ["jpg", "jpeg"] }

    /// SOI: FF D8.
    static func claims(_ start: ArraySlice<UInt8>) -> Bool {
        start.starts(with: [0xFF, 0xD8])
    }

    /// The APP1 (EXIF, XMP) and APP13 (Photoshop) segments before the first scan, their
    /// signatures taken off.
    static func metadata(in bytes: [UInt8]) -> ImageMetadata {
        var metadata = ImageMetadata()
        let layout = JPEGLayout(parsing: bytes[...])
        metadata.skippedSegments = layout.skippedMetadataSegments
        for segment in layout.metadata {
            let payload = bytes[segment.payload]
            if segment.marker == 0xE1, let tiff = EXIF.tiff(inApp1Payload: payload) {
                metadata.exif.append(tiff)
            } else if segment.marker == 0xE1, XMPCaption.isXMP(payload) {
                metadata.xmp.append(payload.dropFirst(XMPCaption.header.count))
            } else if segment.marker == 0xED, payload.starts(with: IPTCCaption.header) {
                metadata.photoshop.append(payload.dropFirst(IPTCCaption.header.count))
            }
        }
        return metadata
    }

    func header(start: [UInt8], file: PhotoFile) throws -> ImageHeader {
        try readHeader(start: start, file: file).imageHeader
    }

    func decode(_ bytes: [UInt8], path: String, to target: ImageSize) throws -> DecodedImage {
        try decode(bytes: bytes, path: path, to: target)
    }
}

/// Calls `body` with a C message buffer and returns its result and the message.
private func withMessageBuffer(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (Int32, String) {
    var buffer = [CChar](repeating: 0, count: 256)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return (result, message)
}
