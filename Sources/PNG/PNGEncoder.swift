import Blitter
import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Encodes `bitmap` and replaces `path` with it atomically: the data goes to a temporary file
    /// in the same directory, is flushed, then renamed over `path`, so readers never see half a file.
    public static func write(_ bitmap: Bitmap, to path: String) throws {
        try AtomicFile.replace(path, with: encode(bitmap))
    }

    /// Each row as a filter-type byte and the filtered RGB bytes. The filter is chosen per row by
    /// the usual heuristic (smallest sum of absolute signed bytes), which suits both photos and
    /// flat UI colours. A given `filter` is used for every row instead.
    static func filteredScanlines(_ bitmap: Bitmap, filter forced: UInt8? = nil) -> [UInt8] {
        let rowBytes = bitmap.width * 3
        var out = [UInt8](repeating: 0, count: (rowBytes + 1) * bitmap.height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5)
        for y in 0..<bitmap.height {
            let rowStart = y * bitmap.stride
            for x in 0..<bitmap.width {
                let p = bitmap.pixels[rowStart + x]
                current[3 * x] = Pixel.red(p)
                current[3 * x + 1] = Pixel.green(p)
                current[3 * x + 2] = Pixel.blue(p)
            }
            var best = 0, bestCost = Int.max
            for filter in forced.map({ [Int($0)] }) ?? Array(0..<5) {
                let cost = apply(filter: filter, current: current, previous: previous, into: &candidates[filter])
                if cost < bestCost { best = filter; bestCost = cost }
            }
            let start = y * (rowBytes + 1)
            out[start] = UInt8(best)
            out.replaceSubrange(start + 1..<start + 1 + rowBytes, with: candidates[best])
            swap(&previous, &current)
        }
        return out
    }

    /// Filters one row with PNG filter type `filter` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) and
    /// returns its cost: the sum of the output bytes read as signed values.
    private static func apply(filter: Int, current: [UInt8], previous: [UInt8], into out: inout [UInt8]) -> Int {
        var cost = 0
        for i in 0..<current.count {
            let a = i >= 3 ? current[i - 3] : 0, b = previous[i], c = i >= 3 ? previous[i - 3] : 0
            let predictor: UInt8
            switch filter {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = UInt8((Int(a) + Int(b)) / 2)
            case 4: predictor = paeth(a, b, c)
            default: predictor = 0
            }
            let value = current[i] &- predictor
            out[i] = value
            cost += Int(Int8(bitPattern: value).magnitude)
        }
        return cost
    }

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
        let crc = self[start...].withContiguousStorageIfAvailable { bytes in
            crc32(0, bytes.baseAddress, uInt(bytes.count))
        } ?? 0
        appendBigEndian(UInt32(crc))
    }
}
