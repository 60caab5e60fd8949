import Blitter
import CZlib

/// Just enough PNG decoding to check the encoder: 8-bit RGB, no interlace, all five filters.
/// Every chunk's CRC is verified.
public enum PNGTestDecoder {
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public struct Chunk {
        public let type: String
        public let data: [UInt8]
    }

    public static func chunks(_ file: [UInt8]) throws -> [Chunk] {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Malformed("no PNG signature") }
        var chunks: [Chunk] = [], offset = 8
        func bigEndian(_ at: Int) -> Int { file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        while offset < file.count {
            guard offset + 12 <= file.count else { throw Malformed("truncated chunk header at \(offset)") }
            let length = bigEndian(offset)
            guard offset + 12 + length <= file.count else { throw Malformed("truncated chunk at \(offset)") }
            let typeAndData = Array(file[offset + 4..<offset + 8 + length])
            let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            guard Int(crc) == bigEndian(offset + 8 + length) else { throw Malformed("bad CRC at \(offset)") }
            chunks.append(Chunk(type: String(decoding: typeAndData[0..<4], as: UTF8.self), data: Array(typeAndData[4...])))
            offset += 12 + length
        }
        return chunks
    }

    /// Each row's filter type byte, in order.
    public static func filterTypes(_ file: [UInt8]) throws -> [UInt8] {
        let (width, _, raw) = try scanlines(file)
        return stride(from: 0, to: raw.count, by: width * 3 + 1).map { raw[$0] }
    }

    /// The width, height and inflated scanlines (each a filter type byte and the filtered RGB bytes).
    static func scanlines(_ file: [UInt8]) throws -> (width: Int, height: Int, raw: [UInt8]) {
        let chunks = try chunks(file)
        guard let header = chunks.first, header.type == "IHDR", header.data.count == 13 else { throw Malformed("no IHDR first") }
        guard chunks.last?.type == "IEND" else { throw Malformed("no IEND last") }
        let width = header.data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = header.data[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard Array(header.data[8...]) == [8, 2, 0, 0, 0] else { throw Malformed("not 8-bit RGB: \(header.data[8...])") }

        let compressed = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        var raw = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        var length = uLong(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, uLong($0.count)) }
        }
        guard status == Z_OK, Int(length) == raw.count else { throw Malformed("inflate: status \(status), \(length) bytes") }
        return (width, height, raw)
    }

    public static func decode(_ file: [UInt8]) throws -> Bitmap {
        let (width, height, raw) = try scanlines(file)
        let rowBytes = width * 3

        var bitmap = Bitmap(width: width, height: height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<height {
            let start = y * (rowBytes + 1)
            let filter = raw[start]
            var row = Array(raw[start + 1..<start + 1 + rowBytes])
            for i in 0..<rowBytes {
                let a = i >= 3 ? row[i - 3] : 0, b = previous[i], c = i >= 3 ? previous[i - 3] : 0
                switch filter {
                case 0: break
                case 1: row[i] &+= a
                case 2: row[i] &+= b
                case 3: row[i] &+= UInt8((Int(a) + Int(b)) / 2)
                case 4:
                    let p = Int(a) + Int(b) - Int(c)
                    let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
                    row[i] &+= pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Malformed("filter type \(filter) in row \(y)")
                }
            }
            for x in 0..<width { bitmap[x, y] = Pixel.rgb(row[3 * x], row[3 * x + 1], row[3 * x + 2]) }
            previous = row
        }
        return bitmap
    }
}
