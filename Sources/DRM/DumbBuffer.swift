#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CDRM
import Linux
import SystemPackage

/// A CPU-drawable scanout buffer: a dumb GEM object, a framebuffer on it, and its mapping.
/// Set-up is create -> AddFB2 -> map; tear-down is the reverse, in `destroy()`, and a failed
/// set-up undoes only the steps that were done.
///
/// The memory is often write-combined or uncached: write it, never read it.
final class DumbBuffer {
    let width: Int
    let height: Int
    /// Bytes from one row to the next.
    let pitch: Int
    let size: Int
    let handle: UInt32
    let framebufferID: UInt32
    private(set) var pixels: UnsafeMutableRawPointer?
    private let fd: Int32

    /// DRM_FORMAT_XRGB8888: fourcc_code('X', 'R', '2', '4') (the macro does not import).
    static let formatXRGB8888: UInt32 = 0x3432_5258

    init(fd: Int32, width: Int, height: Int) throws {
        self.fd = fd
        self.width = width
        self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        try checked("drmModeCreateDumbBuffer", detail: "\(width)x\(height)") {
            drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        }
        self.handle = handle
        self.pitch = Int(pitch)
        self.size = Int(size)

        var framebufferID: UInt32 = 0
        do {
            var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
            var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
            var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
            let added = withUnsafeMutableBytes(of: &handles) { h in
                withUnsafeMutableBytes(of: &pitches) { p in
                    withUnsafeMutableBytes(of: &offsets) { o in
                        drmModeAddFB2(fd, UInt32(width), UInt32(height), Self.formatXRGB8888,
                                      h.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      p.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      o.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      &framebufferID, 0)
                    }
                }
            }
            if added != 0 {
                // Older drivers lack ADDFB2; the legacy call with depth 24 / 32 bpp is XRGB8888.
                try checked("drmModeAddFB", detail: "\(width)x\(height)") {
                    drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &framebufferID)
                }
            }
        } catch {
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        self.framebufferID = framebufferID

        do {
            var offset: UInt64 = 0
            try checked("drmModeMapDumbBuffer", detail: "handle \(handle)") {
                drmModeMapDumbBuffer(fd, handle, &offset)
            }
            let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
            guard let mapped, mapped != MAP_FAILED else {
                throw DRMError.system(SystemError("mmap", path: "dumb buffer \(handle)", errno: Errno(rawValue: errno)))
            }
            pixels = mapped
        } catch {
            _ = drmModeRmFB(fd, framebufferID)
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
    }

    deinit { destroy() }

    /// munmap, RmFB, DESTROY_DUMB: the reverse of set-up. Safe to call twice.
    func destroy() {
        guard let mapped = pixels else { return }
        pixels = nil
        munmap(mapped, size)
        _ = drmModeRmFB(fd, framebufferID)
        _ = drmModeDestroyDumbBuffer(fd, handle)
    }

    /// Start of row `y` in the mapping.
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32>? {
        guard let pixels, y >= 0, y < height else { return nil }
        return (pixels + y * pitch).assumingMemoryBound(to: UInt32.self)
    }
}
