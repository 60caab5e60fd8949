/// The few HEIF boxes Vitrine reads itself, beside libheif, to bound a file before decoding it
/// (ISO/IEC 14496-12, ISO/IEC 23008-12): how many coded images the primary image is derived
/// from (libheif 1.15 has no call that says how many tiles a grid has, and a grid of 256x256
/// one-pixel tiles passes photos.max_megapixels while costing 65,536 decoder runs), and its
/// displayed size (libheif 1.15's is wrong for some files).
///
/// Pure: it reads bytes it is handed. Every length comes from the file and is checked against the
/// bytes there are; the walk is bounded in boxes, references and depth.
enum HEIFBoxes {
    /// A box's type and where its payload is (after the header, and after version and flags for
    /// a full box, which the caller skips).
    struct Box: Equatable {
        let type: String
        /// Offsets within the bytes the box was read from.
        let payload: Range<Int>
    }

    /// More boxes in one container than any real file has (libheif's own limit is 20,000 per box).
    static let maxBoxes = 100_000
    /// Derivations nested deeper than this (a grid of grids of grids...) are not followed: their
    /// leaves count as the limit, so the file is refused.
    static let maxDepth = 8

    /// A box header at `offset` of `bytes`, whose end may lie past them (`size` is what the header
    /// says, nil for "to the end of the file"). Nil when the header itself is cut or invalid.
    static func header(in bytes: ArraySlice<UInt8>, at offset: Int) -> (type: String, headerLength: Int, size: Int?)? {
        guard offset >= bytes.startIndex, offset <= bytes.endIndex - 8 else { return nil }
        let size32 = bigEndian(bytes, offset, 4)
        let type = HEIFFileType.fourCC(bytes[offset + 4..<offset + 8])
        switch size32 {
        case 0:
            return (type, 8, nil)
        case 1:
            guard offset <= bytes.endIndex - 16 else { return nil }
            let size64 = bigEndian(bytes, offset + 8, 8)
            guard size64 >= 16, size64 <= UInt64(Int.max / 2) else { return nil }
            return (type, 16, Int(size64))
        default:
            guard size32 >= 8 else { return nil }
            return (type, 8, Int(size32))
        }
    }

    /// The boxes inside `range` of `bytes`, in order; stops at the first one that does not fit.
    static func children(of bytes: ArraySlice<UInt8>, in range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        let region = bytes[range.clamped(to: bytes.indices)]
        while boxes.count < maxBoxes, let (type, headerLength, size) = header(in: region, at: offset) {
            let end = size.map { offset + $0 } ?? region.endIndex
            guard end <= region.endIndex, offset + headerLength <= end else { break }
            boxes.append(Box(type: type, payload: offset + headerLength..<end))
            offset = end
        }
        return boxes
    }

    /// What Vitrine reads of the primary item itself: the coded images it is made of and the
    /// size it is displayed at.
    struct PrimaryItem: Equatable {
        /// 1 for a coded image; a grid's tiles, an overlay's inputs, nested derivations multiplied
        /// out; Int.max for a cycle or nesting past `maxDepth`.
        var tiles: Int
        /// ispe with the item's clap and irot applied in their order, as libheif decodes it (libheif
        /// 1.15 reports the ispe unrotated when irot comes before ispe in the item's ipma entry);
        /// nil without an ispe.
        var displayedSize: ImageSize?
        /// Where a grid's descriptor is (its output size, which libheif decodes to whatever the
        /// ispe says), when the primary item is a grid; nil otherwise.
        var grid: ItemData? = nil
        /// The largest ispe among the items the primary item is derived from (a grid's tiles), in
        /// pixels: each is decoded whole before it is placed.
        var largestInputPixels: Int? = nil
    }

    /// Where an item's data lies (its iloc entry's first extent).
    enum ItemData: Equatable {
        /// In the meta box's idat (construction method 1): a range of the meta payload's bytes.
        case idat(Range<Int>)
        /// In the file (construction method 0): an offset and a length.
        case file(offset: Int, length: Int)
    }

    /// The output size a grid's descriptor (ISO/IEC 23008-12 6.6.2.3.2) gives: version, flags,
    /// rows - 1, columns - 1, then the width and height in 16 or 32 bits (flags bit 0).
    static func gridOutputSize(descriptor bytes: ArraySlice<UInt8>) -> ImageSize? {
        guard bytes.count >= 8, bytes[bytes.startIndex] == 0 else { return nil }
        let wide = bytes[bytes.startIndex + 1] & 1 != 0
        let fieldLength = wide ? 4 : 2
        guard bytes.count >= 4 + 2 * fieldLength else { return nil }
        let width = bigEndian(bytes, bytes.startIndex + 4, fieldLength)
        let height = bigEndian(bytes, bytes.startIndex + 4 + fieldLength, fieldLength)
        return ImageSize(width: Int(width), height: Int(height))
    }

    /// The primary item of a meta box (its payload after version and flags). Nil when the box
    /// names no primary item (libheif refuses the file then).
    static func primaryItem(metaPayload bytes: ArraySlice<UInt8>) -> PrimaryItem? {
        let boxes = children(of: bytes, in: bytes.indices)
        guard let pitm = boxes.first(where: { $0.type == "pitm" }), pitm.payload.count >= 6 else { return nil }
        let pitmWide = bytes[pitm.payload.lowerBound] != 0
        guard !pitmWide || pitm.payload.count >= 8 else { return nil }
        let primary = bigEndian(bytes, pitm.payload.lowerBound + 4, pitmWide ? 4 : 2)
        let references = derivations(bytes, boxes)
        let tiles = tileCount(of: primary, references: references)
        var item = PrimaryItem(tiles: tiles, displayedSize: displayedSize(of: primary, bytes, boxes))
        if itemType(of: primary, bytes, boxes) == "grid" { item.grid = itemData(of: primary, bytes, boxes) }
        let inputs = Set(references[primary] ?? []).prefix(maxBoxes)
        item.largestInputPixels = inputs.compactMap { storedSize(of: $0, bytes, boxes)?.pixelCount }.max()
        return item
    }

    /// The item's type (infe version 2 or 3: "hvc1", "av01", "grid"...), from the iinf box.
    private static func itemType(of item: UInt64, _ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> String? {
        guard let iinf = boxes.first(where: { $0.type == "iinf" }), iinf.payload.count >= 6 else { return nil }
        let countLength = bytes[iinf.payload.lowerBound] == 0 ? 2 : 4
        let entries = iinf.payload.lowerBound + 4 + countLength..<iinf.payload.upperBound
        for infe in children(of: bytes, in: entries) where infe.type == "infe" && infe.payload.count >= 4 {
            let version = bytes[infe.payload.lowerBound]
            guard version >= 2 else { continue }
            let idLength = version == 2 ? 2 : 4
            let idAt = infe.payload.lowerBound + 4, typeAt = idAt + idLength + 2
            guard typeAt + 4 <= infe.payload.upperBound, bigEndian(bytes, idAt, idLength) == item else { continue }
            return HEIFFileType.fourCC(bytes[typeAt..<typeAt + 4])
        }
        return nil
    }

    /// Where the item's data is: its iloc entry's first extent (ISO/IEC 14496-12 8.11.3).
    private static func itemData(of item: UInt64, _ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> ItemData? {
        guard let iloc = boxes.first(where: { $0.type == "iloc" }), iloc.payload.count >= 8 else { return nil }
        var offset = iloc.payload.lowerBound
        let end = iloc.payload.upperBound
        let version = bytes[offset]
        offset += 4
        let offsetSize = Int(bytes[offset] >> 4), lengthSize = Int(bytes[offset] & 15)
        let baseOffsetSize = Int(bytes[offset + 1] >> 4), indexSize = version >= 1 ? Int(bytes[offset + 1] & 15) : 0
        offset += 2
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize),
              [0, 4, 8].contains(indexSize) else { return nil }
        let countLength = version < 2 ? 2 : 4
        guard offset + countLength <= end else { return nil }
        let count = bigEndian(bytes, offset, countLength)
        offset += countLength
        func field(_ length: Int) -> UInt64? {
            guard offset + length <= end else { return nil }
            defer { offset += length }
            return length == 0 ? 0 : bigEndian(bytes, offset, length)
        }
        for _ in 0..<min(count, UInt64(maxBoxes)) {
            guard let id = field(version < 2 ? 2 : 4) else { return nil }
            var method: UInt64 = 0
            if version >= 1 { guard let value = field(2) else { return nil }; method = value & 15 }
            guard field(2) != nil, let base = field(baseOffsetSize), let extents = field(2) else { return nil }
            var first: (offset: UInt64, length: UInt64)?
            for _ in 0..<extents {
                if version >= 1, indexSize > 0 { guard field(indexSize) != nil else { return nil } }
                guard let extentOffset = field(offsetSize), let extentLength = field(lengthSize) else { return nil }
                if first == nil { first = (extentOffset, extentLength) }
            }
            guard id == item, let first else { continue }
            let (start, overflow) = base.addingReportingOverflow(first.offset)
            guard !overflow, start <= UInt64(Int.max / 2), first.length <= UInt64(Int.max / 2) else { return nil }
            switch method {
            case 0:
                return .file(offset: Int(start), length: Int(first.length))
            case 1:
                guard let idat = boxes.first(where: { $0.type == "idat" }) else { return nil }
                let length = first.length == 0 ? UInt64(idat.payload.count) : first.length
                guard start + length <= UInt64(idat.payload.count) else { return nil }
                return .idat(idat.payload.lowerBound + Int(start)..<idat.payload.lowerBound + Int(start + length))
            default:
                return nil
            }
        }
        return nil
    }

    /// The colr boxes of a meta box's ipco whose ICC profile is over `MetadataBounds.iccBytes`:
    /// where each box starts within `bytes` (its type 4 bytes on), and the profile's declared size.
    static func oversizedProfiles(metaPayload bytes: ArraySlice<UInt8>) -> [(box: Int, declared: Int)] {
        let boxes = children(of: bytes, in: bytes.indices)
        guard let iprp = boxes.first(where: { $0.type == "iprp" }),
              let ipco = children(of: bytes, in: iprp.payload).first(where: { $0.type == "ipco" }) else { return [] }
        var found: [(box: Int, declared: Int)] = []
        var offset = ipco.payload.lowerBound
        for property in children(of: bytes, in: ipco.payload) {
            defer { offset = property.payload.upperBound }
            guard property.type == "colr", property.payload.count - 4 > MetadataBounds.iccBytes,
                  ["prof", "rICC"].contains(HEIFFileType.fourCC(bytes[property.payload.lowerBound..<property.payload.lowerBound + 4]))
            else { continue }
            found.append((offset, property.payload.count - 4))
        }
        return found
    }

    /// The 'dimg' references of the iref box: item to the items it is derived from.
    private static func derivations(_ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> [UInt64: [UInt64]] {
        var derivedFrom: [UInt64: [UInt64]] = [:]
        guard let iref = boxes.first(where: { $0.type == "iref" }), iref.payload.count >= 4 else { return derivedFrom }
        let idLength = bytes[iref.payload.lowerBound] == 0 ? 2 : 4
        let references = iref.payload.lowerBound + 4..<iref.payload.upperBound
        for reference in children(of: bytes, in: references) where reference.type == "dimg" {
            var offset = reference.payload.lowerBound
            guard offset + idLength + 2 <= reference.payload.upperBound else { continue }
            let from = bigEndian(bytes, offset, idLength)
            let count = Int(bigEndian(bytes, offset + idLength, 2))
            offset += idLength + 2
            let available = min(count, (reference.payload.upperBound - offset) / idLength)
            derivedFrom[from, default: []] += (0..<available).map { bigEndian(bytes, offset + $0 * idLength, idLength) }
        }
        return derivedFrom
    }

    private static func tileCount(of primary: UInt64, references derivedFrom: [UInt64: [UInt64]]) -> Int {
        var counted: [UInt64: Int] = [:]
        func leaves(_ item: UInt64, depth: Int) -> Int {
            guard let inputs = derivedFrom[item] else { return 1 }
            if let known = counted[item] { return known }
            guard depth < maxDepth else { return Int.max }
            counted[item] = Int.max  // a cycle counts as no end of tiles
            var total = 0
            for input in inputs {
                let (sum, overflow) = total.addingReportingOverflow(leaves(input, depth: depth + 1))
                total = overflow ? Int.max : sum
                if total == Int.max { break }
            }
            counted[item] = total
            return total
        }
        return leaves(primary, depth: 0)
    }

    /// The item's ispe as it is, without its transformations.
    private static func storedSize(of item: UInt64, _ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> ImageSize? {
        guard let listed = properties(of: item, bytes, boxes),
              let ispe = listed.first(where: { $0.type == "ispe" && $0.payload.count >= 12 }) else { return nil }
        let width = bigEndian(bytes, ispe.payload.lowerBound + 4, 4), height = bigEndian(bytes, ispe.payload.lowerBound + 8, 4)
        guard width <= UInt64(Int32.max), height <= UInt64(Int32.max) else { return nil }
        return ImageSize(width: Int(width), height: Int(height))
    }

    /// The item's ispe, then its clap and irot in ipma order (imir keeps the size).
    private static func displayedSize(of item: UInt64, _ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> ImageSize? {
        guard let listed = properties(of: item, bytes, boxes), var size = storedSize(of: item, bytes, boxes) else { return nil }
        for property in listed {
            let payload = property.payload
            switch property.type {
            case "irot" where payload.count >= 1:
                if bytes[payload.lowerBound] & 1 == 1 { size = size.transposed }
            case "clap" where payload.count >= 16:
                let widthN = bigEndian(bytes, payload.lowerBound, 4), widthD = bigEndian(bytes, payload.lowerBound + 4, 4)
                let heightN = bigEndian(bytes, payload.lowerBound + 8, 4), heightD = bigEndian(bytes, payload.lowerBound + 12, 4)
                guard widthD > 0, heightD > 0 else { continue }
                // libheif rounds the clean aperture's size to whole pixels, within the image.
                let clean = ImageSize(width: Int(min((widthN + widthD / 2) / widthD, 1 << 31)),
                                      height: Int(min((heightN + heightD / 2) / heightD, 1 << 31)))
                size = ImageSize(width: min(max(clean.width, 1), size.width), height: min(max(clean.height, 1), size.height))
            default:
                break
            }
        }
        return size
    }

    /// The properties the ipma box associates with the item, in its order.
    private static func properties(of item: UInt64, _ bytes: ArraySlice<UInt8>, _ boxes: [Box]) -> [Box]? {
        guard let iprp = boxes.first(where: { $0.type == "iprp" }) else { return nil }
        let inside = children(of: bytes, in: iprp.payload)
        guard let ipco = inside.first(where: { $0.type == "ipco" }), let ipma = inside.first(where: { $0.type == "ipma" }),
              ipma.payload.count >= 8 else { return nil }
        let properties = children(of: bytes, in: ipco.payload)
        let version = bytes[ipma.payload.lowerBound], wideIndex = bytes[ipma.payload.lowerBound + 3] & 1 != 0
        let idLength = version < 1 ? 2 : 4, indexLength = wideIndex ? 2 : 1
        var offset = ipma.payload.lowerBound + 8
        let entries = bigEndian(bytes, ipma.payload.lowerBound + 4, 4)
        var associated: [Int]?
        for _ in 0..<min(entries, UInt64(maxBoxes)) {
            guard offset + idLength + 1 <= ipma.payload.upperBound else { break }
            let id = bigEndian(bytes, offset, idLength)
            let count = Int(bytes[offset + idLength])
            offset += idLength + 1
            guard offset + count * indexLength <= ipma.payload.upperBound else { break }
            if id == item {
                associated = (0..<count).map { Int(bigEndian(bytes, offset + $0 * indexLength, indexLength)) & (wideIndex ? 0x7FFF : 0x7F) }
                break
            }
            offset += count * indexLength
        }
        return (associated ?? []).filter { $0 >= 1 && $0 <= properties.count }.map { properties[$0 - 1] }
    }

    /// An unsigned big-endian number of `length` bytes at `offset` (the caller checked the bounds).
    static func bigEndian(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ length: Int) -> UInt64 {
        bytes[offset..<offset + length].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
