import Foundation
@testable import Photos
import TestSupport
import Testing

/// Photos with captions built here: a small real JPEG with APP1 (EXIF, XMP) and APP13 (Photoshop
/// block with IPTC) segments inserted after its SOI marker, as cameras and editors place them.
enum CaptionJPEG {
    static let base = try! Data(contentsOf: URL(fileURLWithPath: TestJPEGs.path("variants/derived_17x9_crop_sunset.jpg")))

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func photo(_ segments: [[UInt8]]) -> [UInt8] {
        let jpeg = [UInt8](base)
        return Array(jpeg[..<2]) + segments.flatMap { $0 } + Array(jpeg[2...])
    }

    static func xmp(title: String?, description: String?, extra: String = "") -> [UInt8] {
        func alt(_ name: String, _ value: String?) -> String {
            guard let value else { return "" }
            return "<\(name)><rdf:Alt><rdf:li xml:lang=\"de\">Nicht das</rdf:li>"
                + "<rdf:li xml:lang=\"x-default\">\(value)</rdf:li></rdf:Alt></\(name)>"
        }
        let packet = "<?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>"
            + "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'><rdf:Description rdf:about=''"
            + " xmlns:dc='http://purl.org/dc/elements/1.1/'>\(alt("dc:title", title))\(alt("dc:description", description))\(extra)"
            + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end='w'?>"
        return xmpPayload(Array(packet.utf8))
    }

    static func xmpPayload(_ packet: [UInt8]) -> [UInt8] {
        segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + packet)
    }

    static func iptcData(name: [UInt8]?, caption: [UInt8]?, declareUTF8: Bool = true) -> [UInt8] {
        func dataset(_ record: UInt8, _ number: UInt8, _ data: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
        }
        var data: [UInt8] = declareUTF8 ? dataset(1, 90, [0x1B, 0x25, 0x47]) : []
        data += dataset(2, 0, [0, 4])
        if let name { data += dataset(2, 5, name) }
        if let caption { data += dataset(2, 120, caption) }
        return data
    }

    /// A Photoshop block: a resource before the IPTC one (as Photoshop writes them), then 0x0404.
    static func iptc(_ data: [UInt8], claimedSize: Int? = nil) -> [UInt8] {
        func resource(_ id: UInt16, _ bytes: [UInt8], size: Int? = nil) -> [UInt8] {
            let size = size ?? bytes.count
            var out = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF), 0, 0]
            out += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            return out + bytes + (bytes.count % 2 == 1 ? [0] : [])
        }
        let payload = Array("Photoshop 3.0".utf8) + [0] + resource(0x03ED, [0, 0x48, 0, 0, 0, 1, 0, 1])
            + resource(0x0404, data, size: claimedSize)
        return segment(0xED, payload)
    }

    static func iptc(name: String?, caption: String?) -> [UInt8] {
        iptc(iptcData(name: name.map { Array($0.utf8) }, caption: caption.map { Array($0.utf8) }))
    }

    /// EXIF in big-endian TIFF: IFD0 with ImageDescription and a pointer to the Exif IFD holding
    /// DateTimeOriginal. `descriptionOffset` lets a test make the description point past the end.
    static func exif(description: [UInt8]?, date: String? = nil, descriptionOffset: UInt32? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let descriptionBytes: [UInt8] = description.map { $0 + [0] } ?? []
        let dateBytes: [UInt8] = date.map { Array($0.utf8) + [0] } ?? []
        let ifd0Count = (description == nil ? 0 : 1) + 1
        let ifd0Size = 2 + ifd0Count * 12 + 4
        let exifIFDOffset = 8 + ifd0Size
        let exifIFDSize = 2 + 12 + 4
        let dataOffset = exifIFDOffset + exifIFDSize
        var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(8)
        tiff += u16(ifd0Count)
        if description != nil {
            tiff += u16(0x010E) + u16(2) + u32(descriptionBytes.count) + u32(Int(descriptionOffset ?? UInt32(dataOffset)))
        }
        tiff += u16(0x8769) + u16(4) + u32(1) + u32(exifIFDOffset)
        tiff += u32(0)
        tiff += u16(1) + u16(0x9003) + u16(2) + u32(dateBytes.count) + u32(dataOffset + descriptionBytes.count)
        tiff += u32(0)
        tiff += descriptionBytes + dateBytes
        return segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
    }
}

@Suite struct CaptionReaderTests {
    private func read(_ jpeg: [UInt8], sidecar: [UInt8]? = nil, reader: CaptionReader = CaptionReader()) throws -> CaptionReader.Reading {
        let folder = try TemporaryDirectory("captions")
        defer { folder.remove() }
        try Data(jpeg).write(to: URL(fileURLWithPath: folder.file("photo.jpg")))
        if let sidecar { try Data(sidecar).write(to: URL(fileURLWithPath: folder.file("photo.txt"))) }
        var reading = reader.read(photoPath: folder.file("photo.jpg"))
        reading.warning = reading.warning?.replacingOccurrences(of: folder.path, with: "DIR")
        return reading
    }

    private let all: [[UInt8]] = [
        CaptionJPEG.exif(description: Array("EXIF text".utf8)),
        CaptionJPEG.iptc(name: "IPTC title", caption: "IPTC text"),
        CaptionJPEG.xmp(title: "XMP title", description: "XMP text"),
    ]

    @Test func sidecarComesFirstItsFirstLineIsTheTitle() throws {
        let reading = try read(CaptionJPEG.photo(all), sidecar: Array("Harbour at dusk\r\nThe last ferry.\nSecond line.\n".utf8))
        #expect(reading.caption == Caption(title: "Harbour at dusk", description: "The last ferry.\nSecond line.", source: .sidecar))
        #expect(reading.caption?.paragraphs == ["Harbour at dusk", "The last ferry.", "Second line."])
        #expect(reading.warning == nil)
    }

    @Test func thenXMPThenIPTCThenEXIF() throws {
        #expect(try read(CaptionJPEG.photo(all)).caption == Caption(title: "XMP title", description: "XMP text", source: .xmp))
        #expect(try read(CaptionJPEG.photo(Array(all[0...1]))).caption == Caption(title: "IPTC title", description: "IPTC text", source: .iptc))
        #expect(try read(CaptionJPEG.photo([all[0]])).caption == Caption(description: "EXIF text", source: .exif))
        let none = try read(CaptionJPEG.photo([]))
        #expect(none.caption == nil && none.warning == nil)
    }

    @Test func anEmptySourceDoesNotHideTheNextOne() throws {
        let emptyXMP = CaptionJPEG.xmp(title: nil, description: nil)
        let blankSidecar: [UInt8] = Array("  \n\n".utf8)
        let reading = try read(CaptionJPEG.photo([emptyXMP, all[1]]), sidecar: blankSidecar)
        #expect(reading.caption?.source == .iptc)
    }

    @Test func xmpTakesTheDefaultLanguageAndDecodesEntities() throws {
        let reading = try read(CaptionJPEG.photo([CaptionJPEG.xmp(title: "Fish &amp; chips &#x2014; &lt;Brighton&gt;", description: "caf&#233;")]))
        #expect(reading.caption == Caption(title: "Fish & chips — <Brighton>", description: "café", source: .xmp))
    }

    @Test func iptcTextWithoutUTF8DeclarationIsLatin1() throws {
        let latin1: [UInt8] = [0x43, 0x61, 0x66, 0xE9]  // "Café" in ISO 8859-1
        let block = CaptionJPEG.iptc(CaptionJPEG.iptcData(name: latin1, caption: nil, declareUTF8: false))
        #expect(try read(CaptionJPEG.photo([block])).caption == Caption(title: "Café", source: .iptc))
    }

    @Test func dateTakenInTheGivenFormat() throws {
        let jpeg = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "2024:03:05 10:20:30"), all[2]])
        let reading = try read(jpeg, reader: CaptionReader(includeDate: true, dateFormat: "%Y-%m-%d %H:%M"))
        #expect(reading.caption == Caption(title: "XMP title", description: "XMP text", date: "2024-03-05 10:20", source: .xmp))
        // Only a date: the caption is the date. Off: nothing.
        let dateOnly = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "2024:03:05 10:20:30")])
        #expect(try read(dateOnly, reader: CaptionReader(includeDate: true, dateFormat: "%e %B %Y")).caption
            == Caption(date: "5 March 2024", source: .date))
        #expect(try read(dateOnly).caption == nil)
        // The zero date cameras write when their clock was not set is no date.
        let zero = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "0000:00:00 00:00:00")])
        #expect(try read(zero, reader: CaptionReader(includeDate: true)).caption == nil)
    }

    // MARK: Malformed metadata: a warning naming the file, and the next source

    @Test func malformedXMPIsSkippedWithAWarning() throws {
        let unclosed = CaptionJPEG.xmpPayload(Array("<x:xmpmeta><dc:title><rdf:Alt><rdf:li xml:lang='x-default'>cut off".utf8))
        let reading = try read(CaptionJPEG.photo([unclosed, all[0]]))
        #expect(reading.caption == Caption(description: "EXIF text", source: .exif))
        #expect(reading.warning == "Caption of DIR/photo.jpg: XMP dc:title is not closed")

        let badUTF8 = CaptionJPEG.xmpPayload(Array("<dc:title><rdf:Alt><rdf:li>".utf8) + [0xC3, 0x28] + Array("</rdf:li></rdf:Alt></dc:title>".utf8))
        let second = try read(CaptionJPEG.photo([badUTF8]))
        #expect(second.caption == nil)
        #expect(second.warning == "Caption of DIR/photo.jpg: XMP packet is not UTF-8")
    }

    @Test func malformedIPTCIsSkippedWithAWarning() throws {
        // A resource claiming 4 GB, a dataset claiming more than is left, text declared UTF-8 that is not.
        let huge = CaptionJPEG.iptc(CaptionJPEG.iptcData(name: Array("x".utf8), caption: nil), claimedSize: 0xFFFF_FFF0)
        let hugeReading = try read(CaptionJPEG.photo([huge, all[0]]))
        #expect(hugeReading.caption?.source == .exif)
        #expect(hugeReading.warning?.hasPrefix("Caption of DIR/photo.jpg: Photoshop resource 1028 claims 4294967280 bytes") == true)

        var data = CaptionJPEG.iptcData(name: Array("title".utf8), caption: nil)
        data[data.count - 7] = 0x40  // the Object Name's length high byte: 16 KB in a few bytes
        let overlong = try read(CaptionJPEG.photo([CaptionJPEG.iptc(data)]))
        #expect(overlong.caption == nil)
        #expect(overlong.warning?.contains("IPTC dataset 2:5 claims") == true)

        let notUTF8 = CaptionJPEG.iptc(CaptionJPEG.iptcData(name: [0x43, 0xE9], caption: nil, declareUTF8: true))
        #expect(try read(CaptionJPEG.photo([notUTF8])).warning == "Caption of DIR/photo.jpg: IPTC Object Name is declared UTF-8 but is not")
    }

    @Test func malformedEXIFIsSkippedWithAWarning() throws {
        let pastTheEnd = CaptionJPEG.exif(description: Array("never read".utf8), descriptionOffset: 60_000)
        let reading = try read(CaptionJPEG.photo([pastTheEnd]))
        #expect(reading.caption == nil)
        #expect(reading.warning?.hasPrefix("Caption of DIR/photo.jpg: EXIF ImageDescription claims") == true)
        let notUTF8 = try read(CaptionJPEG.photo([CaptionJPEG.exif(description: [0x41, 0x42, 0x43, 0xFF, 0xFE])]))
        #expect(notUTF8.warning == "Caption of DIR/photo.jpg: EXIF ImageDescription is not UTF-8")
    }

    @Test func aSegmentLongerThanTheFileGivesNoCaptionAndNoCrash() throws {
        var jpeg = CaptionJPEG.photo([CaptionJPEG.xmp(title: "Title", description: nil)])
        jpeg[4] = 0xFF  // the XMP segment's length: 65 KB, past the end of the file
        jpeg[5] = 0xF0
        let reading = try read(jpeg)
        #expect(reading.caption == nil)
    }

    @Test func sidecarProblemsAreWarningsAndTheMetadataIsUsed() throws {
        let bad = try read(CaptionJPEG.photo([all[2]]), sidecar: [0x48, 0xFF, 0x0A])
        #expect(bad.caption?.source == .xmp)
        #expect(bad.warning == "Caption of DIR/photo.jpg: sidecar DIR/photo.txt is not UTF-8")

        let large = try read(CaptionJPEG.photo([all[2]]), sidecar: [UInt8](repeating: 0x41, count: CaptionReader.sidecarLimit + 1))
        #expect(large.caption?.source == .xmp)
        #expect(large.warning?.contains("photo.txt") == true)

        // A FIFO with the sidecar's name: refused without blocking.
        let folder = try TemporaryDirectory("captions-fifo")
        defer { folder.remove() }
        try Data(CaptionJPEG.photo([])).write(to: URL(fileURLWithPath: folder.file("photo.jpg")))
        #expect(mkfifo(folder.file("photo.txt"), 0o600) == 0)
        let fifo = CaptionReader().read(photoPath: folder.file("photo.jpg"))
        #expect(fifo.caption == nil)
        #expect(fifo.warning?.contains("photo.txt") == true)
    }

    @Test func sidecarPathReplacesTheExtension() {
        #expect(CaptionReader.sidecarPath(for: "/p/IMG_0001.JPG") == "/p/IMG_0001.txt")
        #expect(CaptionReader.sidecarPath(for: "/p.d/photo") == "/p.d/photo.txt")
        #expect(CaptionReader.sidecarPath(for: "a.b.jpeg") == "a.b.txt")
    }

    /// Random damage to a photo with every source: whatever the bytes, a reading (or none), never a crash.
    @Test func damagedMetadataNeverCrashes() throws {
        let folder = try TemporaryDirectory("captions-damage")
        defer { folder.remove() }
        let original = CaptionJPEG.photo(all)
        var rng = SplitMix64(seed: 16)
        for round in 0..<200 {
            var jpeg = original
            for _ in 0..<(1 + round % 8) {
                let at = 2 + Int(rng.next() % UInt64(min(jpeg.count - 2, 900)))
                jpeg[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            if round % 5 == 0 { jpeg = Array(jpeg.prefix(2 + Int(rng.next() % 900))) }
            try Data(jpeg).write(to: URL(fileURLWithPath: folder.file("photo.jpg")))
            _ = CaptionReader(includeDate: true).read(photoPath: folder.file("photo.jpg"))
        }
    }
}
