#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CDRM
import Linux

/// An open DRM card node (/dev/dri/cardN). Owns the file descriptor: opened in `init`, closed in
/// `close()`, which its user must call (an open card at deinit asserts in debug builds). Getters return Swift snapshots; libdrm's structs are freed at once.
public final class DRMCard {
    public let path: String
    public let driverName: String
    /// "major.minor.patchlevel" as the driver reports it.
    public let driverVersion: String
    public let driverDescription: String
    /// Page-flip timestamps are CLOCK_MONOTONIC (DRM_CAP_TIMESTAMP_MONOTONIC).
    public let hasMonotonicTimestamps: Bool
    private let descriptor: OwnedDescriptor

    /// Opens the card read-write, close-on-exec, and checks it can do KMS with dumb buffers.
    public init(path: String) throws {
        // Not a card (/dev/null, a file): said as such, not as an ioctl's ENOTTY. A path not
        // there yet is left to open, whose ENOENT means "wait for it".
        if let status = try? FileStatus(path: path), let kind = Self.notACard(status) {
            throw DRMError.notACard(path: path, kind: kind)
        }
        let fd = try checked("open", detail: path) { open(path, O_RDWR | O_CLOEXEC) }
        let descriptor = OwnedDescriptor(rawValue: fd, name: path)
        // From here on, a failure must close what was opened.
        do {
            let version = try checkedPointer("drmGetVersion", detail: path) { drmGetVersion(fd) }
            defer { drmFreeVersion(version) }
            driverName = version.pointee.name.map { String(cString: $0) } ?? "?"
            driverDescription = version.pointee.desc.map { String(cString: $0) } ?? ""
            driverVersion = "\(version.pointee.version_major).\(version.pointee.version_minor).\(version.pointee.version_patchlevel)"

            var dumb: UInt64 = 0
            if drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) != 0 || dumb == 0 {
                throw DRMError.noDumbBuffers(path: path)
            }
            var monotonic: UInt64 = 0
            hasMonotonicTimestamps = drmGetCap(fd, UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), &monotonic) == 0 && monotonic != 0
        } catch {
            try? descriptor.close()
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// DRM's character devices' major number (include/uapi/drm/drm.h, DRM_MAJOR).
    public static let major: UInt32 = 226

    /// What a node that is not a DRM card is instead ("a character device 1:3"); nil for a card.
    public static func notACard(_ status: FileStatus) -> String? {
        status.kind == .characterDevice && status.deviceMajor == major ? nil : status.nodeDescription
    }

    /// Closes the card; later calls fail with `.closed`. Never retried on EINTR (the fd is gone).
    public func close() {
        try? descriptor.close()
    }

    /// The raw descriptor, for poll() in an event loop.
    public var fileDescriptor: Int32 { descriptor.rawValue }

    func fd() throws -> Int32 {
        guard descriptor.isOpen else { throw DRMError.closed }
        return descriptor.rawValue
    }

    /// /dev/dri/card* in numeric order; the first one that opens and has a connected connector.
    public static func discover(directory: String = "/dev/dri") throws -> DRMCard {
        let paths = try cardPaths(in: directory)
        guard !paths.isEmpty else { throw DRMError.noDevices(directory: directory) }
        var firstError: DRMError?
        var opened = 0
        for path in paths {
            do {
                let card = try DRMCard(path: path)
                opened += 1
                let connected: Bool
                do {
                    connected = try card.connectors().contains { $0.status == .connected }
                } catch {
                    card.close()
                    throw error
                }
                if connected { return card }
                card.close()
            } catch let error as DRMError {
                firstError = firstError ?? error
            }
        }
        // When no card could even be opened (permissions, no KMS), that is the problem to report.
        if opened == 0, let firstError { throw firstError }
        throw DRMError.noConnectedCard(cards: paths)
    }

    /// /dev/dri/card* in numeric order; none when the folder does not exist (no GPU driver has
    /// loaded). A folder that cannot be read is an error naming it (`.permissionDenied` for EACCES).
    public static func cardPaths(in directory: String = "/dev/dri") throws -> [String] {
        do {
            return try FileName.numberedNodes(in: directory, prefix: "card")
        } catch {
            throw DRMError(error)
        }
    }

    // MARK: - KMS objects

    struct Resources {
        var crtcIDs: [UInt32]
        var connectorIDs: [UInt32]
        var encoderIDs: [UInt32]
    }

    func resources() throws -> Resources {
        let fd = try fd()
        let res = try checkedPointer("drmModeGetResources", detail: path) { drmModeGetResources(fd) }
        defer { drmModeFreeResources(res) }
        func ids(_ pointer: UnsafeMutablePointer<UInt32>?, _ count: Int32) -> [UInt32] {
            guard let pointer, count > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
        }
        let r = res.pointee
        return Resources(crtcIDs: ids(r.crtcs, r.count_crtcs), connectorIDs: ids(r.connectors, r.count_connectors),
                         encoderIDs: ids(r.encoders, r.count_encoders))
    }

    /// All connectors, probed (this may take a moment on real hardware: it reads EDID).
    public func connectors() throws -> [Connector] {
        try resources().connectorIDs.map { try connector(id: $0) }
    }

    public func connector(id: UInt32) throws -> Connector {
        let fd = try fd()
        let raw = try checkedPointer("drmModeGetConnector", detail: "connector \(id)") { drmModeGetConnector(fd, id) }
        defer { drmModeFreeConnector(raw) }
        return Connector(raw.pointee)
    }

    public func encoders() throws -> [Encoder] {
        let fd = try fd()
        return try resources().encoderIDs.map { id in
            let raw = try checkedPointer("drmModeGetEncoder", detail: "encoder \(id)") { drmModeGetEncoder(fd, id) }
            defer { drmModeFreeEncoder(raw) }
            return Encoder(id: raw.pointee.encoder_id, currentCRTCID: raw.pointee.crtc_id,
                           possibleCRTCs: raw.pointee.possible_crtcs)
        }
    }

    public func crtcIDs() throws -> [UInt32] { try resources().crtcIDs }

    /// The CRTC's current state, as drmModeGetCrtc returns it (kept whole to restore it later).
    func crtcState(id: UInt32) throws -> drmModeCrtc {
        let fd = try fd()
        let raw = try checkedPointer("drmModeGetCrtc", detail: "CRTC \(id)") { drmModeGetCrtc(fd, id) }
        defer { drmModeFreeCrtc(raw) }
        return raw.pointee
    }
}
