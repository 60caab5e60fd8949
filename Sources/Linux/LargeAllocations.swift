import CLinux

/// Where glibc's malloc puts large blocks: set once per process, before the first picture.
public enum LargeAllocations {
    /// Blocks of this many bytes or more each get a mapping of their own.
    public static let mmapThreshold = 256 * 1024

    /// Pixel and decode buffers are megabytes each and come and go for as long as the kiosk runs.
    /// glibc raises its mmap threshold to the size of each such block freed, after which they come
    /// from the heap arenas, where freed memory stays resident and a new buffer starts wherever
    /// the heap had room. A fixed threshold keeps every large buffer a mapping of its own: given
    /// back to the kernel when freed, and all at one offset within a page, so copies between them
    /// run at the same speed every time (a full-frame copy measured 0.87x pixman's time between
    /// heap buffers 96 bytes apart in their pages, 0.78x between mapped ones, in one run).
    /// False if glibc refused (mallopt reports no reason); the kiosk works the same, less tidily.
    @discardableResult
    public static func mapEachOne() -> Bool { applied }

    private static let applied: Bool = mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold)) == 1
}
