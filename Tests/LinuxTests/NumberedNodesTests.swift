import TestSupport
import Testing
@testable import Linux

/// Device nodes (/dev/dri/card*, /dev/input/event*) listed through the Linux layer's one listing.
@Suite struct NumberedNodesTests {
    @Test func numbersAreOrderedAsNumbersAndOtherNamesLeftOut() {
        let names = ["event10", "event2", "by-path", "event0", "events", "event-1", "event+3", "event", "mice",
                     "event99999999999999999999"]
        #expect(FileName.numbered(names, prefix: "event") == ["event0", "event2", "event10"])
        #expect(FileName.numbered(["card1", "renderD128", "card0"], prefix: "card") == ["card0", "card1"])
    }

    @Test func theNodesOfAFolderComeAsPathsAndAMissingFolderHasNone() throws {
        let folder = try TemporaryDirectory("nodes")
        defer { folder.remove() }
        for name in ["card1", "card0", "renderD128"] { try writeBytes([], to: folder.file(name)) }
        #expect(try FileName.numberedNodes(in: folder.path, prefix: "card") == [folder.file("card0"), folder.file("card1")])
        #expect(try FileName.numberedNodes(in: folder.file("absent"), prefix: "card") == [])
    }

    @Test func aFolderThatCannotBeListedIsAnErrorNamingIt() throws {
        let folder = try TemporaryDirectory("nodes-file")
        defer { folder.remove() }
        try writeBytes([1], to: folder.file("dri"))
        #expect {
            try FileName.numberedNodes(in: folder.file("dri"), prefix: "card")
        } throws: { error in
            let error = error as? SystemError
            return error?.call == "opendir" && error?.path == folder.file("dri")
                && error?.reason == .notDirectory(.regular)
        }
    }
}
