import Foundation
import Photos

/// The `metadata-jpeg`, `metadata-png`, `metadata-webp` and `metadata-heif` fuzz targets: the bytes
/// as a photo file of one container (its signature put in front when the input lacks it, so that
/// the fuzzer stays in that container's walk), through every way Vitrine takes metadata out of it:
/// - the caption blocks of the whole file in memory (`PhotoDecoder.metadata(in:)`: JPEG's APP1 and
///   APP13, PNG's eXIf and iTXt, WebP's EXIF and XMP chunks, HEIF's Exif and XMP items) and each
///   block through its reader (EXIF's IFDs, XMP through expat, IPTC), then the caption made of
///   them (`CaptionReader`: the choice, the cleaning, Stream-Safe text);
/// - the same file from disk, as the decode workers read it: the header, then a decode to 8x6 with
///   the metadata read from the same bytes and the colour description (the ICC profile, through
///   lcms2, or CICP) applied, for images of at most `decodedPixels`;
/// - the caption read without a decode (`PhotoDecoder.metadata(path:)`).
public enum MetadataFuzzTarget {
    public enum Container: String, Sendable {
        case jpeg, png, webp, heif

        /// What the file must start with to be read as this container.
        func signed(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .jpeg:
                return bytes.starts(with: [0xFF, 0xD8]) ? bytes : [0xFF, 0xD8] + bytes
            case .png:
                let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                return bytes.starts(with: signature) ? bytes : signature + bytes
            case .webp:
                if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) { return bytes }
                let size = UInt32(clamping: bytes.count + 4)
                return Array("RIFF".utf8) + withUnsafeBytes(of: size.littleEndian, Array.init) + Array("WEBP".utf8) + bytes
            case .heif:
                if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) { return bytes }
                let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
                return ftyp + bytes
            }
        }

        var fileExtension: String { self == .heif ? "heic" : rawValue }
    }

    public enum Outcome: Equatable, Sendable {
        /// No decoder claimed the bytes, or the header was refused.
        case rejected(String)
        /// What was found: blocks of each kind and whether a caption came of them.
        case read(exif: Int, xmp: Int, photoshop: Int, caption: Bool)
    }

    /// Larger images are not decoded: a fuzz input costs milliseconds.
    static let decodedPixels = 4096
    static let options = DecodeOptions(maxMegapixels: 0.1)
    /// One file per process and container, written again for every input.
    private static let folder = NSTemporaryDirectory() + "vitrine-fuzz-metadata-\(getpid())"

    public static func run(_ input: UnsafeRawBufferPointer, container: Container) -> Outcome {
        let bytes = container.signed(Array(input))
        var found = Outcome.rejected("no decoder claims it")
        if let metadata = PhotoDecoder.metadata(in: bytes) {
            found = read(metadata, photoPath: "fuzz.\(container.fileExtension)")
        }
        let path = folder + "/fuzz.\(container.fileExtension)"
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return found }
        if let metadata = try? PhotoDecoder.metadata(path: path, options: options) {
            _ = read(metadata, photoPath: path)
        }
        guard let decoder = try? PhotoDecoder(options: options) else { return found }
        do {
            let info = try decoder.info(path: path)
            if info.size.pixelCount <= decodedPixels {
                let decoded = try? decoder.decode(path: path, to: ImageSize(width: 8, height: 6), metadata: true)
                if let metadata = decoded?.metadata { _ = read(metadata, photoPath: path) }
            }
        } catch {
            if case .rejected = found { return .rejected("\(error)") }
        }
        return found
    }

    private static func read(_ metadata: ImageMetadata, photoPath: String) -> Outcome {
        for packet in metadata.xmp { _ = XMPCaption.read(packet: packet) }
        for tiff in metadata.exif { _ = (EXIF.imageDescription(tiff: tiff), EXIF.dateTimeOriginal(tiff: tiff)) }
        let reading = CaptionReader(includeDate: true).read(sidecar: nil, metadata: metadata, photoPath: photoPath)
        return .read(exif: metadata.exif.count, xmp: metadata.xmp.count, photoshop: metadata.photoshop.count,
                     caption: reading.caption != nil)
    }
}
