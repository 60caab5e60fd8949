import Foundation
@testable import Photos
import TestSupport
import Testing

/// XMP read by expat (issue #22): comments, CDATA, any prefix, the language rule, the packets real
/// tools write, entities refused, and a packet after many other segments.
@Suite struct XMPCaptionTests {
    private static let namespaces = "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#' xmlns:dc='http://purl.org/dc/elements/1.1/'"

    /// A packet whose rdf:Description holds `body`.
    private func packet(_ body: String, namespaces: String = namespaces) -> ArraySlice<UInt8> {
        Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(namespaces)><rdf:Description rdf:about=''>\(body)</rdf:Description></rdf:RDF></x:xmpmeta>".utf8)[...]
    }

    @Test func aCommentInsideTheTitleIsNotShown() {
        let text = XMPCaption.read(packet: packet(
            "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>Harbour<!-- TODO: check the name --> at dusk</rdf:li></rdf:Alt></dc:title>"))
        #expect(text == .found(title: "Harbour at dusk", description: nil))
    }

    @Test func aTitleInsideACommentDoesNotWin() {
        let text = XMPCaption.read(packet: packet(
            "<!-- <dc:title><rdf:Alt><rdf:li xml:lang='x-default'>Old title</rdf:li></rdf:Alt></dc:title> -->"
                + "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>Real title</rdf:li></rdf:Alt></dc:title>"))
        #expect(text == .found(title: "Real title", description: nil))
    }

    @Test func cdataIsShownAsItsText() {
        let text = XMPCaption.read(packet: packet(
            "<dc:description><rdf:Alt><rdf:li xml:lang='x-default'><![CDATA[Fish & chips <Brighton>]]></rdf:li></rdf:Alt></dc:description>"))
        #expect(text == .found(title: nil, description: "Fish & chips <Brighton>"))
    }

    @Test func anyPrefixBoundToTheNamespacesWorks() {
        let body = "<purl:title><r:Alt><r:li xml:lang='x-default'>Other prefixes</r:li></r:Alt></purl:title>"
        let namespaces = "xmlns:r='http://www.w3.org/1999/02/22-rdf-syntax-ns#' xmlns:purl='http://purl.org/dc/elements/1.1/'"
        let text = XMPCaption.read(packet: Array(
            "<x:xmpmeta xmlns:x='adobe:ns:meta/'><r:RDF \(namespaces)><r:Description r:about=''>\(body)</r:Description></r:RDF></x:xmpmeta>".utf8)[...])
        #expect(text == .found(title: "Other prefixes", description: nil))
        // The default namespace too; and "dc:" bound to another URI is not Dublin Core.
        let defaulted = XMPCaption.read(packet: packet(
            "<title xmlns='http://purl.org/dc/elements/1.1/'><rdf:Alt><rdf:li>Default namespace</rdf:li></rdf:Alt></title>"
                + "<dc:description xmlns:dc='urn:not-dublin-core'>Not this</dc:description>"))
        #expect(defaulted == .found(title: "Default namespace", description: nil))
    }

    @Test func theDefaultLanguageElseTheFirst() {
        let withDefault = packet("<dc:title><rdf:Alt><rdf:li xml:lang='de'>Hafen</rdf:li>"
            + "<rdf:li xml:lang='x-default'>Harbour</rdf:li><rdf:li xml:lang='fr'>Port</rdf:li></rdf:Alt></dc:title>")
        #expect(XMPCaption.read(packet: withDefault) == .found(title: "Harbour", description: nil))
        let withoutDefault = packet("<dc:title><rdf:Alt><rdf:li xml:lang='de'>Hafen</rdf:li><rdf:li xml:lang='fr'>Port</rdf:li></rdf:Alt></dc:title>")
        #expect(XMPCaption.read(packet: withoutDefault) == .found(title: "Hafen", description: nil))
        // An empty item counts as none (osxphotos writes `<rdf:li xml:lang='x-default'/>`).
        let emptyDefault = packet("<dc:title><rdf:Alt><rdf:li xml:lang='x-default'/><rdf:li xml:lang='fr'>Port</rdf:li></rdf:Alt></dc:title>")
        #expect(XMPCaption.read(packet: emptyDefault) == .found(title: "Port", description: nil))
    }

    @Test func attributeAndSimpleLiteralForms() {
        #expect(XMPCaption.read(packet: packet("", namespaces: Self.namespaces + " dc:title='As an attribute &amp; more'"))
            == .absent)  // an attribute of rdf:RDF is no property
        let attribute = Array(("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(Self.namespaces)><rdf:Description rdf:about=''"
            + " dc:title='As an attribute &amp; more'/></rdf:RDF></x:xmpmeta>").utf8)[...]
        #expect(XMPCaption.read(packet: attribute) == .found(title: "As an attribute & more", description: nil))
        #expect(XMPCaption.read(packet: packet("<dc:description>Plain &#x2014; text</dc:description>"))
            == .found(title: nil, description: "Plain — text"))
    }

    @Test func entitiesAreRefusedAndBillionLaughsIsHarmless() {
        var laughs = "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
        laughs += (1...9).map { "<!ENTITY lol\($0) '\(String(repeating: "&lol\($0 == 1 ? "" : String($0 - 1));", count: 10))'>" }.joined()
        laughs += "]><x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF \(Self.namespaces)><rdf:Description>"
            + "<dc:title>&lol9;</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>"
        let clock = ContinuousClock()
        var text: CaptionText = .absent
        let elapsed = clock.measure { text = XMPCaption.read(packet: Array(laughs.utf8)[...]) }
        #expect(text == .malformed("XMP packet declares entities (refused: XMP has none)"))
        #expect(elapsed < .seconds(1))
        // An entity that is not declared is not well-formed.
        guard case let .malformed(reason) = XMPCaption.read(packet: packet("<dc:title>&undeclared;</dc:title>")) else {
            Issue.record("an undeclared entity was read")
            return
        }
        #expect(reason.hasPrefix("XMP packet is not well-formed XML: undefined entity"))
    }

    @Test func notWellFormedIsMalformedButPaddingAfterTheEndIsNot() {
        guard case let .malformed(reason) = XMPCaption.read(packet: packet("<dc:title><rdf:Alt><rdf:li>cut off")) else {
            Issue.record("unclosed elements were read")
            return
        }
        #expect(reason.hasPrefix("XMP packet is not well-formed XML: mismatched tag at line 1"))
        let padded = packet("<dc:title>Padded</dc:title>") + Array("<?xpacket end='w'?>".utf8) + [0, 0, 0]
        #expect(XMPCaption.read(packet: padded) == .found(title: "Padded", description: nil))
    }

    // MARK: Packets as the tools write them

    @Test func asExiftoolWritesIt() throws {
        let jpeg = try #require(FileManager.default.contents(atPath: TestJPEGs.path("captions/exiftool_xmp_dc_sunset.jpg")))
        let metadata = try #require(PhotoDecoder.metadata(in: Array(jpeg)))
        #expect(metadata.xmp.count == 1)
        #expect(XMPCaption.read(packet: metadata.xmp[0])
            == .found(title: "Harbour at dusk", description: "The last ferry <leaving> & the gulls"))
    }

    @Test func asDigiKamAndExiv2WriteIt() throws {
        // GIMP 2.10 through Exiv2 ("XMP Core 4.4.0-Exiv2", as digiKam writes): namespaces and
        // simple properties as attributes of rdf:Description, a history Seq before dc:title.
        let jpeg = try #require(FileManager.default.contents(atPath: TestJPEGs.path("variants/jxl_1x1_exif_xmp.jpg")))
        let metadata = try #require(PhotoDecoder.metadata(in: Array(jpeg)))
        #expect(metadata.xmp.map { XMPCaption.read(packet: $0) } == [.found(title: "test", description: nil)])
    }

    @Test func asLightroomWritesIt() {
        // Lightroom Classic's layout (Adobe XMP Core; double quotes; the namespaces and simple
        // properties as attributes; dc:format before dc:title), with made-up values.
        let lightroom = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00        ">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
               xmp:CreatorTool="Adobe Photoshop Lightroom Classic 12.1 (Windows)"
               xmp:Rating="4">
               <dc:format>image/jpeg</dc:format>
               <dc:title>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default">Lac de Joux, early</rdf:li>
                </rdf:Alt>
               </dc:title>
               <dc:description>
                <rdf:Alt>
                 <rdf:li xml:lang="x-default">Mist over the water &amp; the first boats</rdf:li>
                </rdf:Alt>
               </dc:description>
               <lr:hierarchicalSubject>
                <rdf:Bag>
                 <rdf:li>Places|Switzerland</rdf:li>
                </rdf:Bag>
               </lr:hierarchicalSubject>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        #expect(XMPCaption.read(packet: Array(lightroom.utf8)[...])
            == .found(title: "Lac de Joux, early", description: "Mist over the water & the first boats"))
    }

    // MARK: Where the packet is

    @Test func anXMPSegmentAfterManyOtherAPP1SegmentsIsFound() throws {
        let others = (0..<40).map { CaptionJPEG.segment(0xE1, Array("Other\0segment \($0)".utf8)) }
        let jpeg = CaptionJPEG.photo(others + [CaptionJPEG.xmp(title: "After forty", description: nil)])
        let metadata = try #require(PhotoDecoder.metadata(in: jpeg))
        let reading = CaptionReader().read(sidecar: nil, metadata: metadata, photoPath: "/p/photo.jpg")
        #expect(reading.caption == Caption(title: "After forty", source: .xmp))
        #expect(reading.warning == nil)
    }

    @Test func segmentsPastTheBoundAreSaid() throws {
        let empty = CaptionJPEG.segment(0xE1, [])
        let count = JPEGLayout.maxMetadataSegments + 5
        let jpeg = CaptionJPEG.photo(Array(repeating: empty, count: count) + [CaptionJPEG.xmp(title: "Too late", description: nil)])
        let metadata = try #require(PhotoDecoder.metadata(in: jpeg))
        #expect(metadata.skippedSegments == 6)
        let reading = CaptionReader().read(sidecar: nil, metadata: metadata, photoPath: "/p/photo.jpg")
        #expect(reading.caption == nil)
        #expect(reading.warning == "Caption of /p/photo.jpg: 6 metadata segments past the first \(JPEGLayout.maxMetadataSegments) not read")
    }
}
