import CZlib

/// A zlib stream inflated by zlib up to a bound, for the compressed metadata Vitrine reads itself
/// (a PNG iCCP chunk's profile): a stream that would inflate past the bound stops there, having
/// held at most the bound and one step more, whatever it would have come to (a zlib bomb).
enum BoundedInflate {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// It inflates to more than the bound.
        case overBound
        /// zlib refused it (its message).
        case invalid(String)
        /// The stream ends before its end.
        case truncated

        var description: String {
            switch self {
            case .overBound: "inflates past the bound"
            case let .invalid(message): "is not valid zlib data (\(message))"
            case .truncated: "ends inside its zlib data"
            }
        }
    }

    /// What a step adds to the output.
    static let step = 64 * 1024

    /// The bytes `data`, a zlib stream, inflates to, when they are at most `limit`.
    static func inflate(_ data: ArraySlice<UInt8>, limit: Int) -> Result<[UInt8], Failure> {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(.invalid("inflateInit failed"))
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var status = Z_OK
        return data.withUnsafeBytes { input -> Result<[UInt8], Failure> in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(clamping: input.count)
            var chunk = [UInt8](repeating: 0, count: step)
            while status != Z_STREAM_END {
                let produced = chunk.withUnsafeMutableBytes { out -> Int in
                    stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                if status == Z_BUF_ERROR, produced == 0 { return .failure(.truncated) }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    return .failure(.invalid(stream.msg.map { String(cString: $0) } ?? "error \(status)"))
                }
                guard output.count + produced <= limit else { return .failure(.overBound) }
                output += chunk[..<produced]
            }
            return .success(output)
        }
    }
}
