import CLinux
import Glibc

/// glibc's malloc, tuned for a process that decodes pictures of megabytes for months.
public enum ProcessHeap {
    /// Blocks of this many bytes or more each get a mapping of their own.
    static let mmapThreshold = 256 * 1024

    /// Pixel and decode buffers come and go for as long as the kiosk runs. glibc raises its mmap
    /// threshold to the size of each such block freed, after which they come from the heap arenas,
    /// where freed memory stays resident and a new buffer starts wherever the heap had room. A
    /// fixed threshold keeps every large buffer a mapping of its own: given back to the kernel when
    /// freed, and all at one offset within a page, so that how fast a copy between two of them
    /// runs does not depend on where the heap had room (a full-frame copy measured 0.87x pixman's
    /// time between heap buffers 96 bytes apart in their pages, 0.78x between mapped ones, in one
    /// run). Set once per process; false if glibc refused (mallopt reports no reason).
    @discardableResult
    public static func mapLargeBlocks() -> Bool { largeBlocksMapped }

    private static let largeBlocksMapped: Bool = mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold)) == 1

    /// Gives the free pages inside glibc's arenas back to the kernel. The decoders' smaller
    /// buffers (libjpeg's working memory, file bytes, thumbnails) are freed inside per-thread
    /// arenas, which glibc only shrinks from the top: browsing 500 photos left about 23 MB resident
    /// there that no one used. It takes each arena's lock in turn: 40 µs typically, 1-3 ms when
    /// there is much to return (measured while browsing); call it off the frame loop, when a
    /// burst of work ends.
    public static func returnFreePages() {
        _ = malloc_trim(0)
    }

    /// Bytes that malloc has handed out and not had back, over all arenas (not counting blocks
    /// with mappings of their own): what a leak of small blocks makes grow.
    public static func bytesInUse() -> Int {
        Int(mallinfo2().uordblks)
    }

    /// Resident memory of this process in bytes (/proc/self/statm), or 0 if it cannot be read.
    public static func residentBytes() -> Int {
        guard let line = try? RegularFile.read("/proc/self/statm", limit: 4096) else { return 0 }
        // "size resident shared text lib data dt", in pages.
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
