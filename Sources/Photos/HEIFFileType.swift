/// The file type box (ftyp) every HEIF file starts with (ISO/IEC 14496-12 §4.3): its major and
/// compatible brands tell a HEIF/HEIC photo (HEVC-coded) from an AVIF one (AV1-coded) before any
/// library is asked, so that the content, never the name, picks the decoder. Both are read by
/// libheif; the family only names the format in messages and `PhotoInfo.format`.
enum HEIFFileType {
    enum Family: Equatable {
        case heif
        case avif
    }

    /// Brands of AV1 images and sequences (AVIF §10).
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands of HEVC images and sequences (ISO/IEC 23008-12 Annex B), and the codec-neutral
    /// image and sequence brands (mif1, msf1, mif2) that name no codec: a file with only those is
    /// treated as HEIF, libheif decodes whatever its primary item is coded with.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    static let neutralBrands: Set<String> = ["mif1", "msf1", "mif2"]
    /// More compatible brands than any real file lists; the rest are not looked at.
    static let maxBrands = 64

    /// The family of a file starting with `start`, or nil when it does not start with an ftyp box
    /// naming an image brand (an MP4 video's isom, a QuickTime movie, a Canon CR3).
    static func family(of start: ArraySlice<UInt8>) -> Family? {
        guard let (major, compatible) = brands(of: start) else { return nil }
        if avifBrands.contains(major) { return .avif }
        if heifBrands.contains(major) { return .heif }
        if compatible.contains(where: avifBrands.contains) { return .avif }
        if compatible.contains(where: heifBrands.contains) { return .heif }
        if neutralBrands.contains(major) || compatible.contains(where: neutralBrands.contains) { return .heif }
        return nil
    }

    /// The major brand and the compatible brands of an ftyp box at the start of `start`.
    static func brands(of start: ArraySlice<UInt8>) -> (major: String, compatible: [String])? {
        let bytes = Array(start.prefix(16 + 4 * maxBrands))
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        // The box holds at least its header, major brand and minor version; a file cut inside the
        // brand list still names its brands.
        guard size >= 16 else { return nil }
        let end = min(size, bytes.count)
        let compatible = stride(from: 16, to: end - 3, by: 4).map { fourCC(bytes[$0..<$0 + 4]) }
        return (fourCC(bytes[8..<12]), compatible)
    }

    static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
