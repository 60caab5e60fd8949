import Foundation
@testable import Photos
import TestSupport
import Testing

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

    @Test func whatCamerasWriteByThemselvesIsNoCaption() throws {
        for boilerplate in ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "  sony dsc "] {
            let reading = try read(CaptionJPEG.photo([CaptionJPEG.exif(description: Array(boilerplate.utf8))]))
            #expect(reading.caption == nil && reading.warning == nil, "\(boilerplate)")
        }
        #expect(EXIF.isCameraDefault("Canon EOS 5D", camera: ["Canon", "Canon EOS 5D"]))
        #expect(EXIF.isCameraDefault("NIKON CORPORATION NIKON D750", camera: ["NIKON CORPORATION", "NIKON D750"]))
        #expect(!EXIF.isCameraDefault("Sony's new office", camera: ["SONY", "ILCE-7M3"]))
    }

    @Test func everyLineIsAParagraphAndControlCharactersGo() {
        let caption = Caption(title: " Two\r\nline title ", description: "\u{1B}[31mRed\tand\u{7}\n\nmore", date: "5 March", source: .xmp)
        #expect(caption.paragraphs == ["Two", "line title", "[31mRed and", "more", "5 March"])
        #expect(caption.text == "Two\nline title\n[31mRed and\nmore\n5 March")
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

    /// A date_format whose output does not fit is said, not dropped without a word.
    @Test func aDateLongerThanTheBoundIsSaid() throws {
        let jpeg = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "2024:03:05 10:20:30"), all[2]])
        let format = String(repeating: "%A %B ", count: 400)
        let reading = try read(jpeg, reader: CaptionReader(includeDate: true, dateFormat: format))
        #expect(reading.caption == Caption(title: "XMP title", description: "XMP text", source: .xmp))
        #expect(reading.warning?.contains("captions.date_format") == true)
    }

    /// A date that does not exist is no date: not shown, and said; the blank placeholder some
    /// cameras write is neither shown nor said.
    @Test func aDateThatDoesNotExistIsNotShown() throws {
        for bad in ["2023:02:30 10:00:00", "2023:13:01 10:00:00", "2023:01:01 24:61:61", "2023:02:29 12:00:00", "2023:04:31 00:00:00"] {
            let jpeg = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: bad), all[2]])
            let reading = try read(jpeg, reader: CaptionReader(includeDate: true))
            #expect(reading.caption == Caption(title: "XMP title", description: "XMP text", source: .xmp), "\(bad)")
            #expect(reading.warning == "Caption of DIR/photo.jpg: EXIF DateTimeOriginal \"\(bad)\" is no date")
        }
        let leapDay = CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "2024:02:29 12:00:00")])
        #expect(try read(leapDay, reader: CaptionReader(includeDate: true, dateFormat: "%Y-%m-%d")).caption
            == Caption(date: "2024-02-29", source: .date))
        let blank = try read(CaptionJPEG.photo([CaptionJPEG.exif(description: nil, date: "    :  :     :  :  ")]),
                             reader: CaptionReader(includeDate: true))
        #expect(blank.caption == nil && blank.warning == nil)
        #expect(DateFields(exif: "2000:02:29 00:00:00") != nil)
        #expect(DateFields(exif: "1900:02:29 00:00:00") == nil)
    }

    /// A sidecar of one letter and thousands of combining marks of three classes (issue #22) comes
    /// out in Unicode's Stream-Safe Text Format: at most 30 non-starters in a row, a grapheme
    /// joiner between runs, every mark kept.
    @Test func aLongRunOfMixedMarksComesOutStreamSafe() throws {
        let marks: [Unicode.Scalar] = ["\u{0301}", "\u{0316}", "\u{0334}"]
        var text = "Marks\na"
        text.unicodeScalars.append(contentsOf: (0..<3000).map { marks[$0 % 3] })
        let reading = try read(CaptionJPEG.photo([]), sidecar: Array(text.utf8))
        let description = try #require(reading.caption?.description)
        var run = 0, longest = 0
        for scalar in description.unicodeScalars {
            run = scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
            longest = max(longest, run)
        }
        #expect(longest == StreamSafeText.maxNonStarters)
        #expect(description.unicodeScalars.filter { $0 == StreamSafeText.graphemeJoiner }.count == 3000 / 30 - 1)
        #expect(description.unicodeScalars.filter { $0 != StreamSafeText.graphemeJoiner }
            .elementsEqual(text.unicodeScalars.dropFirst(6)))
        // Counted in the decomposition: U+0344 is two marks, so the sixteenth needs a joiner.
        let dialytika = String(repeating: "\u{0344}", count: 16)
        #expect(Array(Caption(title: "x" + dialytika, source: .sidecar).title!.unicodeScalars)
            == Array(("x" + String(repeating: "\u{0344}", count: 15) + "\u{034F}\u{0344}").unicodeScalars))
        // Real text is left as it is.
        for real in ["Phở Hà Nội", "Tiếng Việt có dấu", "ཨོཾ་མ་ཎི་པ་དྨེ་ཧཱུྃ", "שָׁלוֹם", "e\u{0301}\u{0327}\u{0308}"] {
            #expect(Array(Caption(title: real, source: .sidecar).title!.unicodeScalars) == Array(real.unicodeScalars))
        }
    }

    // MARK: Malformed metadata: a warning naming the file, and the next source

    @Test func malformedXMPIsSkippedWithAWarning() throws {
        let unclosed = CaptionJPEG.xmpPayload(Array("<x:xmpmeta><dc:title><rdf:Alt><rdf:li xml:lang='x-default'>cut off".utf8))
        let reading = try read(CaptionJPEG.photo([unclosed, all[0]]))
        #expect(reading.caption == Caption(description: "EXIF text", source: .exif))
        #expect(reading.warning?.hasPrefix("Caption of DIR/photo.jpg: XMP packet is not well-formed XML: ") == true)

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
