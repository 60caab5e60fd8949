import Glibc
import Linux
import Testing

@Suite struct ProcessHeapTests {
    @Test func freePagesBetweenLiveBlocksGoBackToTheKernel() throws {
        // 192 MB in 96 kB blocks (below the mmap threshold, so from the heap), then all but every
        // eighth freed: the live blocks pin the heap, so glibc cannot shrink it from the top and
        // about 168 MB of free pages stay resident until they are returned. Other tests running
        // alongside allocate too, hence the wide margin.
        ProcessHeap.mapLargeBlocks()
        let blockSize = 96 * 1024, count = 2048
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<count {
            let block = try #require(malloc(blockSize))
            memset(block, 0x5A, blockSize)
            blocks.append(block)
        }
        for (i, block) in blocks.enumerated() where i % 8 != 0 { free(block) }
        let before = ProcessHeap.residentBytes()
        ProcessHeap.returnFreePages()
        let after = ProcessHeap.residentBytes()
        for (i, block) in blocks.enumerated() where i % 8 == 0 { free(block) }
        #expect(before - after > 100 * 1_048_576, "resident \(before / 1_048_576) MB -> \(after / 1_048_576) MB")
    }
}
