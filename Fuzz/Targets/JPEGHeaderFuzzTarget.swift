import Foundation
import Photos

/// The `jpeg-header` fuzz target: the bytes as the start of a photo file, read as the library scan
/// reads it (the marker walk, the EXIF orientation, TurboJPEG's header read and the size limits),
/// and the same bytes as an EXIF block, an XMP packet and a Photoshop (IPTC) block on their own. A header of at most 4096 pixels is decoded
/// too (TurboJPEG or the libjpeg fallback, then the resampler), as the workers would.
public enum JPEGHeaderFuzzTarget {
    public enum Outcome: Equatable, Sendable {
        /// The header was refused, with the reason a user would read.
        case rejected(String)
        case header(width: Int, height: Int)
        /// A small image whose header passed but whose data did not decode.
        case undecodable(String)
    }

    /// One decoder for every input (its TurboJPEG handle serves one thread at a time: the tests
    /// replay inputs in parallel).
    nonisolated(unsafe) private static var decoder: JPEGDecoder? = try? JPEGDecoder(maxMegapixels: 100)
    private static let lock = NSLock()

    public static func run(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        lock.withLock { runAlone(bytes) }
    }

    private static func runAlone(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        let array = Array(bytes)
        // The bytes after "Exif\0\0", so that the EXIF reader sees them whole.
        let exif = ([0x45, 0x78, 0x69, 0x66, 0, 0] + array)[...]
        _ = EXIF.orientationValue(app1Payload: exif)
        // The caption readers on the same bytes, as the payload of each segment they read.
        _ = EXIF.imageDescription(app1Payload: exif)
        _ = EXIF.dateTimeOriginal(app1Payload: exif)
        _ = XMPCaption.read(app1Payload: (Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + array)[...])
        _ = IPTCCaption.read(app13Payload: (Array("Photoshop 3.0".utf8) + [0] + array)[...])
        // The caption blocks as the decode workers take them from a photo's bytes, and the caption
        // sources read from them.
        if let metadata = PhotoDecoder.metadata(in: array) {
            for packet in metadata.xmp { _ = XMPCaption.read(packet: packet) }
            for resources in metadata.photoshop { _ = IPTCCaption.read(photoshopResources: resources) }
            for tiff in metadata.exif { _ = (EXIF.imageDescription(tiff: tiff), EXIF.dateTimeOriginal(tiff: tiff)) }
        }
        guard let decoder else { return .rejected("no TurboJPEG handle") }
        do {
            let header = try decoder.readHeader(bytes: array, path: "fuzz.jpg")
            if header.size.width * header.size.height <= 4096 {
                do {
                    _ = try decoder.decode(bytes: array, path: "fuzz.jpg", to: ImageSize(width: 24, height: 16))
                } catch {
                    return .undecodable("\(error)")
                }
            }
            return .header(width: header.size.width, height: header.size.height)
        } catch {
            return .rejected("\(error)")
        }
    }
}
