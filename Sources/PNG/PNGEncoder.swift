import Blitter
import CZlib
import Linux

/// Writes bitmaps as 8-bit RGB PNG files (colour type 2), for screenshots and `snapshot` output.
public enum PNGEncoder {
    /// The complete PNG file for `bitmap`.
    public static func encode(_ bitmap: Bitmap) throws -> [UInt8] {
        try encode(bitmap, filter: nil)
    }

    /// `encode` with every row using `filter` when given (for tests of each filter type).
    static func encode(_ bitmap: Bitmap, filter: UInt8?) throws -> [UInt8] {
        guard !bitmap.isEmpty else { throw PNGError.emptyImage(width: bitmap.width, height: bitmap.height) }
        let compressed = try deflate(filteredScanlines(bitmap, filter: filter))

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(bitmap.width))
        header.appendBigEndian(UInt32(bitmap.height))
        header += [8, 2, 0, 0, 0] // bit depth 8, RGB, deflate, adaptive filtering, no interlace
        file.appendChunk("IHDR", header)
        // Chunks stay well below the 2^31 limit however large the image.
        let chunkSize = 1 << 20
        for start in stride(from: 0, to: compressed.count, by: chunkSize) {
            file.appendChunk("IDAT", compressed[start..<min(start + chunkSize, compressed.count)])
        }
        file.appendChunk("IEND", [])
        return file
    }

    /// Encodes `bitmap` and replaces `path` with it atomically (Linux's AtomicFile: a temporary in
    /// the same directory, flushed, renamed over `path`), so readers never see half a file. Throws
    /// PNGError, or SystemError naming `path`.
    public static func write(_ bitmap: Bitmap, to path: String) throws {
        try AtomicFile.write(encode(bitmap), to: path)
    }

    /// Each row as a filter-type byte and the filtered RGB bytes. The filter is chosen per row by
    /// the usual heuristic (smallest sum of absolute signed bytes), which suits both photos and
    /// flat UI colours. A given `filter` is used for every row instead.
    static func filteredScanlines(_ bitmap: Bitmap, filter forced: UInt8? = nil) -> [UInt8] {
        let rowBytes = bitmap.width * 3, lineBytes = rowBytes + 1
        let filters: [UInt8] = forced.map { [$0] } ?? [0, 1, 2, 3, 4]
        var out = [UInt8](repeating: 0, count: lineBytes * bitmap.height)
        // The RGB bytes of the previous and the current row, each after 3 zero bytes: the
        // filters' "pixel to the left" of the first pixel is 0, and so is the row above the first.
        var previous = [UInt8](repeating: 0, count: rowBytes + 3)
        var current = previous
        var candidate = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<bitmap.height {
            let rowStart = y * bitmap.stride
            current.withUnsafeMutableBufferPointer { row in
                for x in 0..<bitmap.width {
                    let p = bitmap.pixels[rowStart + x]
                    row[3 + 3 * x] = Pixel.red(p)
                    row[4 + 3 * x] = Pixel.green(p)
                    row[5 + 3 * x] = Pixel.blue(p)
                }
            }
            current.withUnsafeBufferPointer { currentRow in
                previous.withUnsafeBufferPointer { previousRow in
                    candidate.withUnsafeMutableBufferPointer { scratch in
                        out.withUnsafeMutableBufferPointer { output in
                            guard let row = currentRow.baseAddress.map({ $0 + 3 }),
                                  let above = previousRow.baseAddress.map({ $0 + 3 }),
                                  let scratch = scratch.baseAddress,
                                  let line = output.baseAddress.map({ $0 + y * lineBytes }) else { return }
                            var best = filters[0]
                            if filters.count > 1 {
                                var bestCost = Int.max
                                for filter in filters {
                                    apply(filter, row: row, above: above, count: rowBytes, into: scratch)
                                    var cost = 0
                                    for i in 0..<rowBytes { cost += Int(Int8(bitPattern: scratch[i]).magnitude) }
                                    if cost < bestCost { best = filter; bestCost = cost }
                                }
                            }
                            line[0] = best
                            apply(best, row: row, above: above, count: rowBytes, into: line + 1)
                        }
                    }
                }
            }
            swap(&previous, &current)
        }
        return out
    }

    /// Filters `count` bytes of `row` with PNG filter type `filter` (0 None, 1 Sub, 2 Up,
    /// 3 Average, 4 Paeth). `row` and `above` have 3 readable zero bytes before them, the
    /// "pixel to the left" of the first pixel.
    private static func apply(_ filter: UInt8, row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int,
                              into out: UnsafeMutablePointer<UInt8>) {
        switch filter {
        case 1: for i in 0..<count { out[i] = row[i] &- row[i - 3] }
        case 2: for i in 0..<count { out[i] = row[i] &- above[i] }
        case 3: for i in 0..<count { out[i] = row[i] &- UInt8((UInt16(row[i - 3]) + UInt16(above[i])) >> 1) }
        case 4: for i in 0..<count { out[i] = row[i] &- paeth(row[i - 3], above[i], above[i - 3]) }
        default: out.update(from: row, count: count)
        }
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// zlib-wrapped deflate at level 6, zlib's default balance of size and speed.
    private static func deflate(_ data: [UInt8]) throws -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), 6)
            }
        }
        guard status == Z_OK else { throw PNGError.compression(call: "compress2", code: status) }
        out.removeSubrange(Int(length)...)
        return out
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Length, type, data and the CRC-32 of type and data.
    mutating func appendChunk<Data: Collection<UInt8>>(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let start = count
        append(contentsOf: type.utf8)
        append(contentsOf: data)
        let crc = withUnsafeBufferPointer { bytes in
            crc32(0, bytes.baseAddress.map { $0 + start }, uInt(bytes.count - start))
        }
        appendBigEndian(UInt32(crc))
    }
}
