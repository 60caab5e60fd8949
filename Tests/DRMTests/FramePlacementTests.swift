import Testing
@testable import DRM

@Suite struct FramePlacementTests {
    @Test func aFrameOfTheBuffersSizeCoversItExactly() {
        let placement = FramePlacement(frameWidth: 1280, frameHeight: 800, bufferWidth: 1280, bufferHeight: 800)
        #expect(placement.offsetX == 0 && placement.offsetY == 0)
        #expect(placement.columns == 0..<1280 && placement.rows == 0..<800)
        #expect(placement.bufferRows(forFrameRows: 10..<20) == 10..<20)
    }

    @Test func aSmallerFrameIsCentred() {
        let placement = FramePlacement(frameWidth: 640, frameHeight: 400, bufferWidth: 1280, bufferHeight: 800)
        #expect(placement.offsetX == 320 && placement.offsetY == 200)
        #expect(placement.columns == 320..<960 && placement.rows == 200..<600)
        #expect(placement.bufferRows(forFrameRows: 0..<10) == 200..<210)
    }

    @Test func aLargerFrameIsCroppedAroundItsCentre() {
        let placement = FramePlacement(frameWidth: 1920, frameHeight: 1080, bufferWidth: 1280, bufferHeight: 800)
        #expect(placement.offsetX == -320 && placement.offsetY == -140)
        #expect(placement.columns == 0..<1280 && placement.rows == 0..<800)
        // Frame rows outside the buffer reach no buffer row.
        #expect(placement.bufferRows(forFrameRows: 0..<100).isEmpty)
        #expect(placement.bufferRows(forFrameRows: 100..<200) == 0..<60)
    }

    @Test func anOddDifferenceLeavesTheExtraPixelAfterTheFrame() {
        let placement = FramePlacement(frameWidth: 3, frameHeight: 3, bufferWidth: 6, bufferHeight: 6)
        #expect(placement.columns == 1..<4 && placement.rows == 1..<4)
    }

    @Test func anEmptyFrameCoversNothing() {
        let placement = FramePlacement(frameWidth: 0, frameHeight: 0, bufferWidth: 1280, bufferHeight: 800)
        #expect(placement.columns.isEmpty && placement.rows.isEmpty)
    }

    @Test func hullOfRowRanges() {
        #expect((0..<0).hull(5..<9) == 5..<9)
        #expect((5..<9).hull(0..<0) == 5..<9)
        #expect((5..<9).hull(20..<30) == 5..<30)
    }
}
