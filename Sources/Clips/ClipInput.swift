import CFFmpeg
import Linux

/// A clip's bytes handed to libavformat through a custom AVIOContext (read and seek callbacks), so
/// that FFmpeg never opens a path itself: the file is read through the Linux layer only (a regular
/// file, opened without blocking on a FIFO, its size bounded), or from memory (the fuzzer). Owns
/// the AVIOContext and its buffer.
final class ClipInput {
    enum Source {
        case file(RegularFile)
        case memory([UInt8])
        /// Someone else's open file (Photos' `PhotoFile`): up to `count` bytes at an offset.
        case reader((_ count: Int, _ offset: Int) throws -> [UInt8])
    }

    /// How much libavformat reads at a time.
    static let bufferSize = 64 * 1024

    let path: String
    let size: Int
    private let source: Source
    private var position = 0
    /// The first read error, kept for the message (FFmpeg only sees AVERROR(EIO)).
    private(set) var readError: (any Error)?
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init(path: String, limits: ClipLimits) throws(ClipError) {
        let file: RegularFile
        do {
            file = try RegularFile(path: path)
        } catch {
            throw ClipError(path: path, reason: .unreadable(error))
        }
        guard file.size <= limits.maxFileBytes else {
            file.close()
            throw ClipError(path: path, reason: .fileTooLarge(bytes: file.size, limit: limits.maxFileBytes))
        }
        self.path = path
        size = file.size
        source = .file(file)
        try makeContext()
    }

    init(bytes: [UInt8], name: String) throws(ClipError) {
        path = name
        size = bytes.count
        source = .memory(bytes)
        try makeContext()
    }

    /// A file its caller opened and closes, `size` bytes long, read through `read`.
    init(name: String, size: Int, read: @escaping (_ count: Int, _ offset: Int) throws -> [UInt8]) throws(ClipError) {
        path = name
        self.size = max(0, size)
        source = .reader(read)
        try makeContext()
    }

    deinit {
        if context != nil {
            av_freep(&context!.pointee.buffer)
            avio_context_free(&context)
        }
        if case let .file(file) = source { file.close() }
    }

    private func makeContext() throws(ClipError) {
        // avio_alloc_context's buffer must come from av_malloc: libavformat may free it and put
        // another in its place (deinit frees the context's current one).
        guard let buffer = av_malloc(Self.bufferSize) else {
            throw ClipError(path: path, call: "av_malloc", code: vitrine_averror(ENOMEM))
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0, opaque,
                                     { opaque, buffer, count in ClipInput.from(opaque).read(into: buffer, count: count) },
                                     nil,
                                     { opaque, offset, whence in ClipInput.from(opaque).seek(offset, whence: whence) })
        guard context != nil else {
            av_free(buffer)
            throw ClipError(path: path, call: "avio_alloc_context", code: vitrine_averror(ENOMEM))
        }
    }

    private static func from(_ opaque: UnsafeMutableRawPointer?) -> ClipInput {
        Unmanaged<ClipInput>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>?, count: Int32) -> Int32 {
        guard let buffer, count > 0 else { return 0 }
        guard position < size else { return vitrine_averror_eof() }
        let wanted = min(Int(count), size - position)
        switch source {
        case let .memory(bytes):
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + position, count: wanted) }
            position += wanted
            return Int32(wanted)
        case .file, .reader:
            let bytes: [UInt8]
            do {
                switch source {
                case let .file(file): bytes = try file.read(count: wanted, at: position)
                case let .reader(read): bytes = try read(wanted, position)
                case .memory: bytes = []
                }
            } catch {
                readError = readError ?? error
                return vitrine_averror(EIO)
            }
            guard !bytes.isEmpty else { return vitrine_averror_eof() }  // it shrank
            let count = min(bytes.count, wanted)
            bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
            position += count
            return Int32(count)
        }
    }

    /// SEEK_SET, SEEK_CUR, SEEK_END and AVSEEK_SIZE (the size, without moving); a position outside
    /// the file is refused, so that no offset from the file reaches an addition that overflows.
    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let base: Int
        switch whence & ~Int32(AVSEEK_FORCE) {
        case Int32(AVSEEK_SIZE): return Int64(size)
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: return Int64(vitrine_averror(EINVAL))
        }
        let (target, overflow) = Int64(base).addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(size) else { return Int64(vitrine_averror(EINVAL)) }
        position = Int(target)
        return target
    }
}
