import CHeif

/// What libheif reads a file through (its `heif_reader`): the whole file in memory, or a
/// `PhotoFile` of which the first bytes were read already.
///
/// A header needs only the ftyp and meta boxes, but libheif 1.15 reads every item's data while it
/// parses them (to check the iloc extents): a header read of an iPhone's 792 kB HEIC read all of
/// it. So for a header (`itemDataAsZeros`) the input serves the file's first bytes and its meta
/// box, read from the file, and zeros for the rest, which a header never looks at: a file whose
/// extents lie past its end is still refused, since the file's real size is given. The caller
/// reads again for real when libheif refuses a file it was handed zeros of (a grid's description
/// in mdat is read while parsing), so that the refusal is the file's own.
///
/// The context that reads through it keeps it alive (libheif reads items' data while decoding).
final class HEIFInput {
    /// The file's length: libheif never reads past it.
    let size: Int
    /// The file's first bytes (all of them when it is in memory).
    let start: [UInt8]
    private let file: PhotoFile?
    private var position = 0
    /// Bytes read from the file beyond `start`, and the first read error (libheif only hears
    /// that a read failed; the error says why).
    private(set) var bytesReadFromFile = 0
    private(set) var readError: PhotoError?
    /// Everything libheif asked for, and how much of it was zeros in place of item data.
    private(set) var bytesRequested = 0
    private(set) var bytesAsZeros = 0
    /// Serve zeros for bytes past `start` outside the meta box (a header read).
    var itemDataAsZeros = false
    /// The top-level meta box, once `metaBox()` found it: where it starts, and its bytes.
    private var meta: (offset: Int, bytes: [UInt8])?

    init(bytes: [UInt8]) {
        start = bytes
        size = bytes.count
        file = nil
    }

    init(file: PhotoFile, start: [UInt8]) {
        self.start = start
        self.file = file
        size = max(file.size, start.count)
    }

    /// Up to `count` bytes at `offset`: from `start` when they lie in it, else from the file (or
    /// the meta box and zeros, for a header).
    func read(count: Int, at offset: Int) throws(PhotoError) -> ArraySlice<UInt8> {
        let bytes = try readAsStored(count: count, at: offset)
        let end = offset + bytes.count
        guard hiddenBoxes.contains(where: { $0 + 4 > offset && $0 < end }) else { return bytes }
        var shown = Array(bytes)
        for box in hiddenBoxes {
            for i in 0..<4 where box + i >= offset && box + i < end { shown[box + i - offset] = Self.hiddenType[i] }
        }
        return shown[...]
    }

    /// The file offsets of the type fields of boxes libheif is shown as "free" (it skips them):
    /// a colr box whose profile is over `MetadataBounds.iccBytes`, which libheif 1.15 would copy
    /// byte by byte through the reader (16 MB: minutes).
    var hiddenBoxes: [Int] = []
    static let hiddenType = Array("free".utf8)

    private func readAsStored(count: Int, at offset: Int) throws(PhotoError) -> ArraySlice<UInt8> {
        guard offset >= 0, count >= 0, offset <= size else { return [] }
        let end = offset + min(count, size - offset)
        bytesRequested += end - offset
        if end <= start.count { return start[offset..<end] }
        if let meta, offset >= meta.offset, end <= meta.offset + meta.bytes.count {
            return meta.bytes[(offset - meta.offset)..<(end - meta.offset)]
        }
        if itemDataAsZeros {
            var bytes = [UInt8](repeating: 0, count: end - offset)
            let known = offset < start.count ? start[offset..<start.count] : []
            bytes.replaceSubrange(0..<known.count, with: known)
            bytesAsZeros += bytes.count - known.count
            return bytes[...]
        }
        guard let file else { return start[min(offset, start.count)..<min(end, start.count)] }
        let bytes = try file.read(count: end - offset, at: offset)
        bytesReadFromFile += bytes.count
        return bytes[...]
    }

    /// Up to `count` bytes at `offset` as the file holds them, even in a header read (a grid's
    /// descriptor in mdat: a few bytes the header's bounds need).
    func readItemData(count: Int, at offset: Int) throws(PhotoError) -> ArraySlice<UInt8> {
        let zeros = itemDataAsZeros
        itemDataAsZeros = false
        defer { itemDataAsZeros = zeros }
        return try read(count: count, at: offset)
    }

    /// Where the meta box starts in the file, once `metaBox()` found it.
    var metaOffset: Int? { meta?.offset }

    /// The payload of the file's top-level meta box (after its version and flags), found by
    /// walking the top-level box headers; nil when the walk does not reach one.
    func metaBox() throws(PhotoError) -> ArraySlice<UInt8>? {
        if let meta { return HEIFInput.payload(of: meta.bytes) }
        var offset = 0
        for _ in 0..<HEIFInput.maxTopLevelBoxes {
            let head = try read(count: 16, at: offset)
            guard let (type, _, boxSize) = HEIFBoxes.header(in: head, at: offset) else { return nil }
            let end = boxSize.map { offset + $0 } ?? size
            if type == "meta" {
                guard end <= size else { return nil }
                let bytes = Array(try read(count: end - offset, at: offset))
                meta = (offset, bytes)
                return HEIFInput.payload(of: bytes)
            }
            guard end > offset, end < size else { return nil }
            offset = end
        }
        return nil
    }

    /// A meta box's children, after its header and its version and flags.
    private static func payload(of box: [UInt8]) -> ArraySlice<UInt8>? {
        guard let (_, headerLength, _) = HEIFBoxes.header(in: box[...], at: 0), box.count >= headerLength + 4 else { return nil }
        return box[(headerLength + 4)...]
    }

    /// Top-level boxes looked at for the meta box (ftyp, meta, mdat, and a few free or uuid boxes
    /// in real files).
    static let maxTopLevelBoxes = 64

    /// The callbacks libheif calls, with the input as their user data. Allocated once, never
    /// freed: libheif keeps a pointer to the table for as long as a context reads through it.
    static let reader: UnsafeMutablePointer<heif_reader> = {
        let table = UnsafeMutablePointer<heif_reader>.allocate(capacity: 1)
        table.initialize(to: heif_reader(
            reader_api_version: 1,
            get_position: { userData in Int64(HEIFInput.from(userData).position) },
            read: { data, size, userData in
                let input = HEIFInput.from(userData)
                guard size > 0 else { return 0 }
                guard let data, size <= Int.max / 2 else { return 1 }
                do throws(PhotoError) {
                    let bytes = try input.read(count: Int(size), at: input.position)
                    guard bytes.count == Int(size) else { return 1 }
                    bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                    input.position += bytes.count
                    return 0
                } catch {
                    if input.readError == nil { input.readError = error }
                    return 1
                }
            },
            seek: { position, userData in
                let input = HEIFInput.from(userData)
                guard position >= 0, position <= Int64(input.size) else { return 1 }
                input.position = Int(position)
                return 0
            },
            wait_for_file_size: { targetSize, userData in
                targetSize <= Int64(HEIFInput.from(userData).size) ? heif_reader_grow_status_size_reached
                    : heif_reader_grow_status_size_beyond_eof
            }))
        return table
    }()

    private static func from(_ userData: UnsafeMutableRawPointer?) -> HEIFInput {
        Unmanaged<HEIFInput>.fromOpaque(userData!).takeUnretainedValue()
    }
}
