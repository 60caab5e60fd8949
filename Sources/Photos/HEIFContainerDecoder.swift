import Blitter

/// What the HEIF and AVIF decoders share: both formats are the HEIF container (ISO/IEC 23008-12)
/// around a different codec, and libheif reads both (libde265 for HEVC, dav1d for AV1). The
/// primary image is shown, with the transformations the file gives it (clap, irot, imir: libheif
/// applies them, so EXIF's orientation is ignored, SPEC §4), alpha composed over black.
///
/// Bounds, all from the boxes before anything is decoded: photos.max_megapixels on the displayed
/// size; at most `maxTiles` coded images behind the primary image; libheif's own limit on any
/// item's side. libheif cannot scale while decoding, so a decode holds the full-size image
/// (`workingBytes`), except when the file's own thumbnail covers the target.
final class HEIFContainerDecoder {
    /// "HEIF" or "AVIF".
    let format: String
    let maxMegapixels: Double

    /// The most coded images (a grid's tiles) a primary image may be made of. The largest real
    /// files have 768 (a Samsung Galaxy S24 Ultra's 200 MP photo: 512x512 tiles); every tile is a
    /// decoder run of its own, so a grid of many tiny tiles (256x256 tiles of one pixel) costs tens
    /// of thousands of runs while its megapixels pass. 1024 leaves a third of margin over 768.
    static let maxTiles = 1024
    /// The tiles libheif 1.15 decodes at once (its default of 4 threads).
    static let tileThreads = 4
    /// libheif 1.15's own limit on an item's width and height (MAX_IMAGE_WIDTH/HEIGHT).
    static let libheifMaxSide = 32768

    init(format: String, options: DecodeOptions) {
        self.format = format
        maxMegapixels = options.maxMegapixels
    }

    /// The side libheif refuses any item at: its own limit, or less when photos.max_megapixels
    /// is so small that a longer side could not pass it. Set on every context, it bounds the
    /// items the megapixel check of the primary image does not see (tiles, thumbnails, alpha and
    /// depth planes) while libheif parses them.
    var maxSide: Int {
        let side = (maxMegapixels * 1e6).rounded(.down) + 1
        return side.isFinite && side >= 1 ? Int(min(side, Double(Self.libheifMaxSide))) : 1
    }

    // MARK: Header

    /// The checked header of the file `input` reads: only its ftyp and meta boxes are read, unless
    /// libheif refuses the file so (see `HEIFInput`), when `reread` gives an input that reads all.
    func header(input: HEIFInput, path: String, reread: (() -> HEIFInput)? = nil) throws(PhotoError) -> ImageHeader {
        guard input.size > 0 else { throw PhotoError(path: path, reason: .empty) }
        let item = try input.metaBox().flatMap(HEIFBoxes.primaryItem(metaPayload:))
        let grid = try gridSize(item, input: input)
        _ = try hideOversizedProfiles(input)
        input.itemDataAsZeros = reread != nil && item != nil
        let context: HEIFContext
        do throws(PhotoError) {
            context = try HEIFContext(input: input, maxSide: maxSide, failure: failure(path, .header))
        } catch {
            guard input.bytesAsZeros > 0, let reread else { throw error }
            return try header(input: reread(), path: path)
        }
        return try checkedHeader(context: context, primary: try context.primaryImage(), item: item, grid: grid, path: path)
    }

    /// The colr boxes whose profile is over its bound, shown to libheif as "free" boxes (it skips
    /// them: the image has no profile, and is shown unconverted), and returned.
    private func hideOversizedProfiles(_ input: HEIFInput) throws(PhotoError) -> [(box: Int, declared: Int)] {
        guard let meta = try input.metaBox(), let base = input.metaOffset else { return [] }
        let oversized = HEIFBoxes.oversizedProfiles(metaPayload: meta)
        input.hiddenBoxes = oversized.map { base + $0.box + 4 }
        return oversized
    }

    /// The output size of the primary item's grid descriptor, when it is a grid: what libheif
    /// decodes to, whatever its ispe says.
    private func gridSize(_ item: HEIFBoxes.PrimaryItem?, input: HEIFInput) throws(PhotoError) -> ImageSize? {
        switch item?.grid {
        case let .idat(range)?:
            guard let meta = try input.metaBox(), range.lowerBound >= meta.startIndex, range.upperBound <= meta.endIndex else { return nil }
            return HEIFBoxes.gridOutputSize(descriptor: meta[range])
        case let .file(offset, length)?:
            let count = length == 0 ? 12 : min(length, 12)
            return HEIFBoxes.gridOutputSize(descriptor: try input.readItemData(count: count, at: offset))
        case nil:
            return nil
        }
    }

    private func checkedHeader(context: HEIFContext, primary: HEIFImageHandle, item: HEIFBoxes.PrimaryItem?,
                               grid: ImageSize?, path: String) throws(PhotoError) -> ImageHeader {
        // libheif 1.15 reports some files' size unrotated (irot listed before ispe); it decodes
        // them rotated all the same.
        let size = item?.displayedSize ?? primary.size
        guard size.width > 0, size.height > 0 else {
            throw PhotoError(path: path, reason: .zeroSize(width: size.width, height: size.height))
        }
        try checkLimit(size, path: path)
        // libheif decodes a grid to its descriptor's size, whatever the ispe says: that is the
        // size every bound is checked on (a grid's ispe edited small passes nothing).
        var decoded = size
        if let grid {
            guard grid.width > 0, grid.height > 0 else { throw PhotoError(path: path, reason: .zeroSize(width: grid.width, height: grid.height)) }
            try checkLimit(grid, path: path)
            if grid.pixelCount > decoded.pixelCount { decoded = grid }
        }
        // A tile is decoded whole before it is cropped into place: each is held to the megapixels
        // too (its working memory, up to libheif's threads at once, is in `workingBytes`).
        if let tile = item?.largestInputPixels, item?.grid != nil, Double(tile) > maxMegapixels * 1e6 {
            throw PhotoError(path: path, reason: .unsupported(format: format,
                "a grid tile of \(tile) pixels, above photos.max_megapixels = \(maxMegapixels) (a decompression bomb)"))
        }
        if let tiles = item?.tiles, tiles > Self.maxTiles {
            let count = tiles == Int.max ? "endlessly nested" : "\(tiles)"
            throw PhotoError(path: path, reason: .unsupported(format: format,
                "a grid of \(count) tiles, more than the \(Self.maxTiles) Vitrine decodes (a decompression bomb: real photos have at most 768)"))
        }
        return ImageHeader(format: format, storedSize: size, orientation: .normal,
                           workingBytes: Self.workingBytes(size: decoded, bits: primary.lumaBits ?? 8, alpha: primary.hasAlpha,
                                                           largestTile: item?.grid != nil ? item?.largestInputPixels ?? 0 : 0))
    }

    private func checkLimit(_ size: ImageSize, path: String) throws(PhotoError) {
        guard Double(size.width) * Double(size.height) <= maxMegapixels * 1e6 else {
            throw PhotoError(path: path, reason: .tooLarge(width: size.width, height: size.height, maxMegapixels: maxMegapixels))
        }
    }

    /// What a full-size decode holds at its peak, besides the output: libheif's decoded planes
    /// (YCbCr, counted at 4:4:4; a 4:2:0 photo's are half that), its alpha plane, the 16-bit RGBA
    /// its conversion of 10- and 12-bit images goes through, and the interleaved image it returns;
    /// then that image and its XRGB copy, which the resampler reads. A grid's tiles are decoded
    /// beside its planes, up to `tileThreads` at once (libheif's threads), each `largestTile`
    /// pixels at most.
    static func workingBytes(size: ImageSize, bits: Int, alpha: Bool, largestTile: Int = 0) -> Int {
        let pixels = Double(size.pixelCount)
        let sample: Double = bits > 8 ? 2 : 1
        let tiles = Double(tileThreads) * Double(max(0, largestTile)) * sample * (alpha ? 4 : 3)
        let planes = pixels * sample * (alpha ? 4 : 3) + tiles
        let wide = bits > 8 ? pixels * 8 : 0
        let interleaved = pixels * (alpha ? 4 : 3)
        let copy = pixels * 4
        return Int(min(max(planes + wide + interleaved, interleaved + copy), Double(Int.max / 2)))
    }

    // MARK: Decoding

    /// A whole file in memory, upright, resampled to exactly `requested` (displayed orientation).
    func decode(_ bytes: [UInt8], path: String, to requested: ImageSize) throws(PhotoError) -> DecodedImage {
        guard !bytes.isEmpty else { throw PhotoError(path: path, reason: .empty) }
        let input = HEIFInput(bytes: bytes)
        let item = try input.metaBox().flatMap(HEIFBoxes.primaryItem(metaPayload:))
        let grid = try gridSize(item, input: input)
        let oversized = try hideOversizedProfiles(input)
        let context = try HEIFContext(input: input, maxSide: maxSide, failure: failure(path, .header))
        let primary = try context.primaryImage()
        let header = try checkedHeader(context: context, primary: primary, item: item, grid: grid, path: path)
        let target = ImageSize(width: max(1, requested.width), height: max(1, requested.height))
        // Whatever a caller asks, no buffer is larger than photos.max_megapixels allows a photo to be.
        try checkLimit(target, path: path)

        // The file's thumbnail when it covers the target and, decoded, has the photo's shape (one
        // missing the photo's rotation or cropped otherwise is not used); else the photo.
        var source = primary, image: HEIFImage?, bitmap: Bitmap?
        if let thumbnail = Self.thumbnail(of: primary, size: header.size, covering: target),
           let small = try? thumbnail.decode(failure: failure(path, .decode, context.input)),
           let pixels = try? small.bitmap(failure: failure(path, .decode)),
           Self.sameShape(ImageSize(width: pixels.width, height: pixels.height), header.size),
           pixels.width >= target.width, pixels.height >= target.height {
            (source, image, bitmap) = (thumbnail, small, pixels)
        }
        if bitmap == nil {
            let full = try primary.decode(failure: failure(path, .decode, context.input))
            (image, bitmap) = (full, try full.bitmap(failure: failure(path, .decode)))
        }
        guard var bitmap, let image else { throw PhotoError(path: path, reason: .noImageData) }
        let decodedSize = ImageSize(width: bitmap.width, height: bitmap.height)
        if decodedSize != target {
            bitmap = bitmap.resized(width: target.width, height: target.height)
        }
        let scale = source === primary ? ScalingFactor.one : ScalingFactor(num: decodedSize.width, denom: header.size.width)
        // A thumbnail without a colr box of its own is coded as its image is.
        var decodedImage = DecodedImage(bitmap: bitmap, header: header, scale: scale, decodedSize: decodedSize,
                                        warning: image.warning, colour: source.colour ?? primary.colour)
        if let declared = oversized.first?.declared {
            decodedImage.colourWarning = "its colr box's ICC profile (\(declared) bytes) is over the "
                + "\(MetadataBounds.shown(MetadataBounds.iccBytes)) bound for ICC profiles"
        }
        return decodedImage
    }

    /// The smallest of the primary image's thumbnails that covers `target` in both dimensions,
    /// smaller than the photo (`size`, displayed). libheif's size of a thumbnail may be unrotated
    /// (see `checkedHeader`): either way round is a candidate, the decoded one is checked.
    static func thumbnail(of primary: HEIFImageHandle, size full: ImageSize, covering target: ImageSize) -> HEIFImageHandle? {
        guard target.width < full.width || target.height < full.height else { return nil }
        let covering = primary.thumbnails().filter { thumbnail in
            let size = thumbnail.size
            let upright = sameShape(size, full) ? size : size.transposed
            return sameShape(upright, full) && upright.width >= target.width && upright.height >= target.height
                && upright.width < full.width
        }
        return covering.min { $0.size.pixelCount < $1.size.pixelCount }
    }

    /// The same aspect ratio within 1%.
    static func sameShape(_ a: ImageSize, _ b: ImageSize) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        return abs(Double(a.width) * Double(b.height) / (Double(a.height) * Double(b.width)) - 1) <= 0.01
    }

    // MARK: Metadata

    /// The primary image's Exif items (the TIFF structure after the item's offset field) and XMP
    /// items (mime items of type application/rdf+xml), in file order.
    func metadata(in bytes: [UInt8]) -> ImageMetadata {
        var metadata = ImageMetadata()
        let input = HEIFInput(bytes: bytes)
        guard !bytes.isEmpty, (try? hideOversizedProfiles(input)) != nil,
              let context = try? HEIFContext(input: input, maxSide: maxSide, failure: failure("", .header)),
              let primary = try? context.primaryImage() else { return metadata }
        // Exif items carry their 4-byte offset (and often "Exif\0\0") before the TIFF structure.
        var unread: [(contentType: String, bytes: Int)] = []
        // libheif copies each item out: all of them together are bounded too.
        var remaining = MetadataBounds.copiedBytes
        for item in primary.metadata(type: "Exif", maxBytes: { _ in MetadataBounds.exifBytes + 10 }, remaining: &remaining,
                                     unread: &unread) {
            if let tiff = Self.tiff(inExifItem: item.bytes) { metadata.exif.append(tiff) }
        }
        for (_, size) in unread {
            metadata.unread.append(MetadataBounds.tooLarge("its Exif item", declared: size, bound: MetadataBounds.exifBytes, kind: "EXIF"))
        }
        unread = []
        // Only XMP is read of the mime items: any other is not read at all, whatever its size.
        let xmp = { (type: String) in type.hasPrefix("application/rdf+xml") ? MetadataBounds.xmpBytes : 0 }
        for item in primary.metadata(type: "mime", maxBytes: xmp, remaining: &remaining, unread: &unread) where item.contentType.hasPrefix("application/rdf+xml") {
            metadata.xmp.append(item.bytes[...])
        }
        for (type, size) in unread where type.hasPrefix("application/rdf+xml") {
            metadata.unread.append(MetadataBounds.tooLarge("its XMP item", declared: size, bound: MetadataBounds.xmpBytes, kind: "XMP"))
        }
        return metadata
    }

    /// The TIFF structure of a HEIF Exif item (ISO/IEC 23008-12 Annex A.2.1): a 4-byte big-endian
    /// offset to the TIFF header, then the bytes it skips (usually "Exif\0\0", which some writers
    /// put after an offset of 0). Nil when the offset points past the item or not at a TIFF header.
    static func tiff(inExifItem item: [UInt8]) -> ArraySlice<UInt8>? {
        guard item.count >= 4 else { return nil }
        let offset = HEIFBoxes.bigEndian(item[...], 0, 4)
        guard offset <= UInt64(item.count - 4) else { return nil }
        var tiff = item[(4 + Int(offset))...]
        if tiff.starts(with: Array("Exif\0\0".utf8)) { tiff = tiff.dropFirst(6) }
        guard tiff.starts(with: [0x49, 0x49, 0x2A, 0x00]) || tiff.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return nil }
        return tiff
    }

    private func failure(_ path: String, _ stage: HEIFFailure.Stage, _ input: HEIFInput? = nil) -> HEIFFailure {
        HEIFFailure(format: format, path: path, stage: stage, input: input)
    }
}
