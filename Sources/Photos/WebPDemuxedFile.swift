import CWebP

/// A whole WebP file as libwebp's demuxer reads it: the canvas, the first frame, the metadata
/// chunks. Owns the WebPDemuxer (deleted with it); the demuxer points into the file's bytes, so
/// it only lives inside `with`, while those bytes are pinned.
final class WebPDemuxedFile {
    /// A frame: its bitstream (ALPH with VP8, or VP8 or VP8L chunks) and where it goes on the canvas.
    struct Frame {
        let bitstream: UnsafeBufferPointer<UInt8>
        let x: Int
        let y: Int
        let size: ImageSize
    }

    private let demuxer: OpaquePointer
    private let bytes: UnsafeBufferPointer<UInt8>

    private init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        // WebPDemux refuses a file that is not whole (WebPDemuxPartial would take it).
        guard bytes.baseAddress != nil, let demuxer = WebPDemux(&data) else { return nil }
        self.demuxer = demuxer
        self.bytes = bytes
    }

    deinit {
        WebPDemuxDelete(demuxer)
    }

    /// `body` with the demuxed file `bytes` holds, or nil when the demuxer refuses them (a RIFF
    /// structure that is invalid or incomplete).
    static func with<T>(_ bytes: [UInt8], _ body: (WebPDemuxedFile?) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { buffer in
            let file = WebPDemuxedFile(buffer)
            defer { withExtendedLifetime(file) {} }
            return try body(file)
        }
    }

    var canvas: ImageSize {
        ImageSize(width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)), height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
    }

    /// The first frame: the image of a still file, the first frame of an animation.
    var firstFrame: Frame? {
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseIterator(&iterator) }
        guard let start = iterator.fragment.bytes else { return nil }
        return Frame(bitstream: UnsafeBufferPointer(start: start, count: iterator.fragment.size),
                     x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                     size: ImageSize(width: Int(iterator.width), height: Int(iterator.height)))
    }

    /// The payloads of the chunks named `fourCC` ("EXIF", "XMP ", "ICCP"), in file order, as
    /// ranges of the file's bytes.
    func chunks(_ fourCC: String) -> [Range<Int>] {
        var iterator = WebPChunkIterator()
        guard let base = bytes.baseAddress, WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return [] }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        var ranges: [Range<Int>] = []
        repeat {
            // The demuxer's payloads lie in the bytes it was given; a range that would not is left out.
            if let start = iterator.chunk.bytes {
                let offset = start - base
                if offset >= 0, iterator.chunk.size <= bytes.count - offset {
                    ranges.append(offset..<offset + iterator.chunk.size)
                }
            }
        } while WebPDemuxNextChunk(&iterator) != 0
        return ranges
    }
}
