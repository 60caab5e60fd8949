#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Blitter
import CDRM
import Config
import Geometry
import Linux
import SystemPackage

/// One output driven through legacy KMS: a connector, a mode, a CRTC and two dumb buffers that
/// take turns on screen through page flips.
///
/// Set-up: pick connector, mode and CRTC; save the CRTC as it was; create both buffers (black);
/// SetCrtc with the first. Tear-down in `close()`, the reverse: wait for the last flip, put the
/// saved CRTC back, destroy the buffers. `close()` must run on every exit path (deinit also
/// calls it, as a safety net).
public final class KMSDisplay {
    public let card: DRMCard
    public let connector: Connector
    /// The mode on screen: size and refresh.
    public let modeInfo: DisplayMode
    public let encoderID: UInt32
    public let crtcID: UInt32
    /// How the panel is mounted ("panel orientation"), `.normal` when the property is absent.
    public let rotation: PanelOrientation
    /// Time of the last completed flip in seconds: CLOCK_MONOTONIC when the card has
    /// monotonic timestamps (it says so in `card.hasMonotonicTimestamps`).
    public private(set) var lastFlipTime: Double?
    /// The vblank sequence number the last flip completed at.
    public private(set) var lastFlipSequence: UInt32 = 0
    /// Flips completed since the display was opened.
    public private(set) var flipCount = 0
    /// A flip was queued and its event has not arrived: the other buffer is still busy.
    public private(set) var isFlipPending = false
    /// False after `setPower(on: false)`: the display is blank and `present` does nothing.
    public private(set) var isPoweredOn = true
    /// Buffer rows the last `present` wrote (the whole height for a full write, 0 for a still frame).
    public private(set) var rowsWritten = 0

    private let properties: ConnectorProperties
    private let savedCRTC: drmModeCrtc
    private var buffers: [DumbBuffer]
    /// The buffer on screen (or queued to be, while a flip is pending).
    private var front = 0
    /// Per buffer: the rows that changed in frames it did not receive (all of them when new).
    private var damage: BufferDamage
    private var lastFrameSize: (width: Int, height: Int)?
    private var closed = false

    /// Takes the display: `connector` by name (nil: the first connected one), the mode that matches
    /// `request` (nil: the preferred mode, else the first).
    public init(card: DRMCard, connector name: String? = nil, mode request: ModeRequest? = nil) throws {
        let fd = try card.fd()
        let choice = try ModeSelection.choose(on: card, connector: name, mode: request)
        let (connector, mode, encoderID, crtcID) = (choice.connector, choice.mode, choice.encoderID, choice.crtcID)
        let properties = try ConnectorProperties(fd: fd, connectorID: connector.id)
        savedCRTC = try card.crtcState(id: crtcID)

        // Each buffer unwinds itself if a later step fails (DumbBuffer.deinit).
        let buffers = try (0..<2).map { _ in try DumbBuffer(fd: fd, width: mode.width, height: mode.height) }
        for buffer in buffers {
            if let start = buffer.pixels { memset(start, 0, buffer.size) }
        }
        var connectorID = connector.id
        var info = mode.info
        try checked("drmModeSetCrtc", detail: "CRTC \(crtcID)") {
            drmModeSetCrtc(fd, crtcID, buffers[0].framebufferID, 0, 0, &connectorID, 1, &info)
        }

        self.card = card
        self.connector = connector
        self.modeInfo = mode
        self.encoderID = encoderID
        self.crtcID = crtcID
        self.properties = properties
        self.rotation = properties[.panelOrientation]?.valueName.flatMap(PanelOrientation.init(rawValue:)) ?? .normal
        self.buffers = buffers
        // Nothing drawn yet: the first frame into each buffer writes all of it.
        damage = BufferDamage(bufferCount: buffers.count, height: mode.height)
    }

    deinit { close() }

    /// The card's descriptor: poll it for POLLIN and call `handleEvents()` when readable.
    public var fileDescriptor: Int32 { card.fileDescriptor }

    // MARK: - Presenting

    /// Shows `frame`: waits for the previous flip if it is still pending, writes the frame's
    /// changed rows into the buffer that is not on screen (and those it missed while the other
    /// was written) and queues a flip to it. `dirtyRows` are the frame's rows that changed since
    /// the last `present` (nil: all of them). A frame of another size than the mode is centred,
    /// cropped, with black around it.
    ///
    /// While the display is powered off this draws nothing (a CRTC that is off takes no flips);
    /// the next frame after power-on is then written whole, whatever its `dirtyRows`.
    public func present(_ frame: Bitmap, dirtyRows: RowSet? = nil) throws {
        guard !closed else { throw DRMError.closed }
        rowsWritten = 0
        guard isPoweredOn else {
            damage.invalidateAll()
            return
        }
        if isFlipPending {
            guard try waitForFlip(timeout: 1) else { throw DRMError.flipTimedOut(seconds: 1) }
        }
        let back = 1 - front
        let buffer = buffers[back]
        let placement = FramePlacement(frameWidth: frame.width, frameHeight: frame.height,
                                       bufferWidth: buffer.width, bufferHeight: buffer.height)
        if lastFrameSize.map({ $0 != (frame.width, frame.height) }) ?? true {
            damage.invalidateAll()
            lastFrameSize = (frame.width, frame.height)
        }
        let changed = dirtyRows.map { RowSet($0.ranges.map { placement.bufferRows(forFrameRows: $0) }) }
        let rows = damage.rowsToWrite(into: back, changed: changed)
        for range in rows.ranges { write(frame, rows: range, placement: placement, into: buffer) }
        rowsWritten = rows.count

        let fd = try card.fd()
        // The flip in flight holds a reference to the display, released by its event, so the
        // event can never find the display gone (even if close() gave up waiting for it).
        let userData = Unmanaged.passRetained(self).toOpaque()
        do {
            try checked("drmModePageFlip", detail: "CRTC \(crtcID)") {
                drmModePageFlip(fd, crtcID, buffer.framebufferID, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
            }
        } catch {
            Unmanaged<KMSDisplay>.fromOpaque(userData).release()
            throw error
        }
        isFlipPending = true
        front = back
    }

    /// Writes each row once, left to right; the buffer is never read.
    private func write(_ frame: Bitmap, rows: Range<Int>, placement: FramePlacement, into buffer: DumbBuffer) {
        let columns = placement.columns
        frame.pixels.withUnsafeBufferPointer { source in
            guard let source = source.baseAddress else { return }
            // Never read back by the CPU: the frame's pixels written past the cache
            // (`ScanoutCopy`), which keeps what the next frame reads; fenced once, at the end.
            ScanoutCopy.writing { copier in
                for y in rows {
                    guard let row = buffer.row(y) else { continue }
                    guard placement.rows.contains(y), !columns.isEmpty else {
                        row.update(repeating: Pixel.black, count: buffer.width)
                        continue
                    }
                    let sourceRow = y - placement.offsetY
                    let sourceColumn = columns.lowerBound - placement.offsetX
                    if columns.lowerBound > 0 { row.update(repeating: Pixel.black, count: columns.lowerBound) }
                    copier.copy(from: source + sourceRow * frame.stride + sourceColumn, to: row + columns.lowerBound,
                                count: columns.count)
                    if columns.upperBound < buffer.width {
                        (row + columns.upperBound).update(repeating: Pixel.black, count: buffer.width - columns.upperBound)
                    }
                }
            }
        }
    }

    // MARK: - Events

    /// Reads pending DRM events (page-flip completions) without blocking. Call it when
    /// `fileDescriptor` is readable.
    public func handleEvents() throws {
        let fd = try card.fd()
        guard try pollReadable(fd, timeout: 0) else { return }
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = KMSDisplay.pageFlipHandler
        try checked("drmHandleEvent") { drmHandleEvent(fd, &context) }
    }

    /// Waits up to `timeout` seconds for the pending flip. True when no flip is pending anymore.
    @discardableResult
    public func waitForFlip(timeout: Double) throws -> Bool {
        let deadline = MonotonicClock.now() + timeout
        while isFlipPending {
            let left = deadline - MonotonicClock.now()
            guard left > 0, try pollReadable(try card.fd(), timeout: left) else { return !isFlipPending }
            try handleEvents()
        }
        return true
    }

    /// When a frame presented now will reach the screen: the first refresh after `now`, counted
    /// from the last flip's timestamp in whole frame periods (SPEC 2: a frame samples the scene
    /// at that time). Without a usable timestamp, one period from now.
    public func expectedFlipTime(after now: Double) -> Double {
        let period = 1 / max(1, modeInfo.refreshRate)
        guard let last = lastFlipTime, card.hasMonotonicTimestamps, last <= now + period else {
            return now + period
        }
        let periods = max(1, ((now - last) / period).rounded(.up))
        return last + periods * period
    }

    /// libdrm calls this from drmHandleEvent; user_data is the display that queued the flip,
    /// retained for the flip.
    private static let pageFlipHandler: @convention(c) (Int32, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = {
        _, sequence, seconds, microseconds, userData in
        guard let userData else { return }
        let display = Unmanaged<KMSDisplay>.fromOpaque(userData).takeRetainedValue()
        display.flipCompleted(sequence: sequence, time: Double(seconds) + Double(microseconds) / 1e6)
    }

    private func flipCompleted(sequence: UInt32, time: Double) {
        isFlipPending = false
        lastFlipSequence = sequence
        lastFlipTime = time
        flipCount += 1
    }

    // MARK: - Connector

    /// Turns the display on or off through the connector's DPMS property. Turned on again, it
    /// shows the last frame that was presented.
    public func setPower(on: Bool) throws {
        guard on != isPoweredOn else { return }
        // A flip still in flight would complete into a CRTC that is going off.
        if isFlipPending { _ = try waitForFlip(timeout: 1) }
        guard let dpms = properties[.dpms] else {
            throw DRMError.system(SystemError("drmModeConnectorSetProperty", path: "\(connector.name), which has no DPMS property",
                                              errno: .noFunction))
        }
        let fd = try card.fd()
        try checked("drmModeConnectorSetProperty", detail: "\(connector.name) DPMS") {
            drmModeConnectorSetProperty(fd, connector.id, dpms.id, UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF))
        }
        isPoweredOn = on
    }

    /// Probes the connector again (after a hotplug uevent, or now and then).
    public func connectorStatus() throws -> ConnectorStatus {
        try card.connector(id: connector.id).status
    }

    /// Whether the connector, probed again, still offers the mode on screen (a different display
    /// plugged into the same port may not).
    public func connectorOffersCurrentMode() throws -> Bool {
        try card.connector(id: connector.id).modes.contains {
            $0.width == modeInfo.width && $0.height == modeInfo.height && abs($0.refreshRate - modeInfo.refreshRate) < 0.5
        }
    }

    /// Sets the mode again with the buffer that was on screen: after the display was unplugged
    /// and plugged back in, the CRTC may have been turned off or the new display not yet told the
    /// mode. Leaves the display powered on; the next `present` writes the whole frame.
    public func reactivate() throws {
        guard !closed else { throw DRMError.closed }
        if isFlipPending { _ = try waitForFlip(timeout: 1) }
        let fd = try card.fd()
        var connectorID = connector.id
        var info = modeInfo.info
        try checked("drmModeSetCrtc", detail: "CRTC \(crtcID)") {
            drmModeSetCrtc(fd, crtcID, buffers[front].framebufferID, 0, 0, &connectorID, 1, &info)
        }
        isPoweredOn = true
        damage.invalidateAll()
    }

    // MARK: - Tear-down

    /// Puts back the CRTC that was on screen before (or turns the CRTC off if nothing was) and
    /// destroys the buffers. Safe to call more than once; returns the restore error, if any.
    @discardableResult
    public func close() -> DRMError? {
        guard !closed else { return nil }
        closed = true
        // Don't pull a buffer out from under a flip in flight.
        if isFlipPending { _ = try? waitForFlip(timeout: 0.5) }
        var failure: DRMError?
        if let fd = try? card.fd() {
            var saved = savedCRTC
            var connectorID = connector.id
            do {
                if saved.mode_valid != 0 && saved.buffer_id != 0 {
                    try checked("drmModeSetCrtc", detail: "restoring CRTC \(crtcID)") {
                        drmModeSetCrtc(fd, saved.crtc_id, saved.buffer_id, saved.x, saved.y, &connectorID, 1, &saved.mode)
                    }
                } else {
                    try checked("drmModeSetCrtc", detail: "turning off CRTC \(crtcID)") {
                        drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
                    }
                }
            } catch let error as DRMError {
                failure = error
            } catch {}
        }
        for buffer in buffers.reversed() { buffer.destroy() }
        buffers.removeAll()
        return failure
    }

    // MARK: - Log

    /// What the program took, in the spirit of modetest's dumps: one fact per line.
    public func describe() -> String {
        let c = connector
        let modes = c.modes.map(\.description)
        let saved = savedCRTC.mode_valid != 0
            ? "fb \(savedCRTC.buffer_id) mode \(DisplayMode(savedCRTC.mode))" : "fb \(savedCRTC.buffer_id), no mode"
        var lines = [
            "card \(card.path): driver \(card.driverName) \(card.driverVersion) (\(card.driverDescription)), monotonic flip timestamps: \(card.hasMonotonicTimestamps ? "yes" : "no")",
            "connector \(c.name) (id \(c.id)): \(c.status.rawValue), \(c.widthMillimetres)x\(c.heightMillimetres) mm, \(modes.count) modes: \(modes.prefix(8).joined(separator: " "))\(modes.count > 8 ? " ..." : "")",
            "mode \(modeInfo)\(modeInfo.isPreferred ? " (preferred)" : ""), refresh \(String(format3(modeInfo.refreshRate))) Hz",
            "CRTC \(crtcID) via encoder \(encoderID); was showing \(saved)",
            "panel orientation: \(properties[.panelOrientation]?.valueName ?? "absent (normal)"), DPMS property: \(properties[.dpms].map { "id \($0.id)" } ?? "absent")",
        ]
        if let b = buffers.first {
            lines.append("buffers: \(buffers.count) x \(b.width)x\(b.height) XRGB8888, pitch \(b.pitch), size \(b.size) bytes, handles \(buffers.map { String($0.handle) }.joined(separator: "/")), fb ids \(buffers.map { String($0.framebufferID) }.joined(separator: "/"))")
        }
        return lines.joined(separator: "\n")
    }

    private func format3(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }
}
