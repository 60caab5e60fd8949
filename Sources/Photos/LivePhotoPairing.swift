/// The library's items made from the files' headers, in their order (SPEC §12): a clip is a clip
/// item, a still a still, and a Live Photo, a still with its motion beside it, one item at the
/// still's place, its motion not listed on its own. Pure and linear: one dictionary by base name.
///
/// What pairs: a still whose content is HEIF or JPEG and a clip named `.mov` (any case) whose
/// names are the same before the last dot, byte for byte. That is what a phone writes
/// (`IMG_1234.HEIC` + `IMG_1234.MOV`) and what copy and export tools make of it (`IMG_1234.JPG` +
/// `IMG_1234.mov` after a conversion or a lower-cased extension; a tool that lower-cases names
/// lower-cases both). The extension's case is ignored because tools change it; the base name's is
/// not, because `IMG_1234` and `img_1234` are two files on the kiosk's file systems.
///
/// Several candidates for one base name: the HEIF still before the JPEG (the camera's original
/// over a converted copy), then the first name in byte order; the first `.mov` name in byte order.
/// The same choice whatever the library's order; the stills and clips not chosen stay items of
/// their own. A motion that the decoder rejected is not among the headers: its still is a still.
public enum LivePhotoPairing {
    /// `photos` in the library's order, as items in the same order.
    public static func items(from photos: [PhotoInfo]) -> [LibraryItem] {
        var pairs: [Substring: (still: Int?, motion: Int?)] = [:]
        for (index, photo) in photos.enumerated() {
            let name = photo.name
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { continue }
            let base = name[..<dot]
            if isStillOfPair(photo) {
                let chosen = pairs[base]?.still
                if chosen.map({ precedes(photo, photos[$0]) }) ?? true { pairs[base, default: (nil, nil)].still = index }
            } else if photo.clip != nil, name[name.index(after: dot)...].lowercased() == "mov" {
                let chosen = pairs[base]?.motion
                if chosen.map({ photo.name.utf8.lexicographicallyPrecedes(photos[$0].name.utf8) }) ?? true {
                    pairs[base, default: (nil, nil)].motion = index
                }
            }
        }
        var motionOf: [Int: Int] = [:]
        for case let (still?, motion?) in pairs.values { motionOf[still] = motion }
        let paired = Set(motionOf.values)
        var items: [LibraryItem] = []
        items.reserveCapacity(photos.count - paired.count)
        for (index, photo) in photos.enumerated() where !paired.contains(index) {
            if let motion = motionOf[index] {
                items.append(LibraryItem(kind: .livePhoto(motion: photos[motion]), picture: photo))
            } else if let clip = photo.clip {
                items.append(LibraryItem(kind: .clip(clip), picture: photo))
            } else {
                items.append(.still(photo))
            }
        }
        return items
    }

    /// A still a Live Photo's motion may belong to: told by its content, as every format is.
    static func isStillOfPair(_ photo: PhotoInfo) -> Bool {
        photo.clip == nil && (photo.format == HEIFDecoder.formatName || photo.format == JPEGDecoder.formatName)
    }

    /// `a` is the better still for a pair than `b`: HEIF first, then by name in byte order.
    private static func precedes(_ a: PhotoInfo, _ b: PhotoInfo) -> Bool {
        let aHEIF = a.format == HEIFDecoder.formatName, bHEIF = b.format == HEIFDecoder.formatName
        if aHEIF != bHEIF { return aHEIF }
        return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }
}
