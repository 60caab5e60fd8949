import Blitter
import Config
import DRM
import Geometry
import Linux
import Logging

/// The DRM display as the kiosk uses it: opened from the settings, turned to the configured
/// rotation, presenting frames composed in ordinary memory.
public final class DisplayOutput {
    public let display: KMSDisplay
    /// Clockwise turn from the scene's upright picture to the panel.
    public let rotation: Settings.Rotation
    /// The size the scene draws at: the mode's, swapped for a quarter turn.
    public let logicalSize: Size
    public let refreshPeriod: Double
    private var turned: Bitmap?
    /// The next frame is written whole, whatever rows its caller says changed.
    private var wholeFrameOwed = true

    public init(settings: Settings.Display, logger: Logger) throws {
        let card = try Self.openCard(settings)
        do {
            display = try KMSDisplay(card: card, connector: settings.connector, mode: settings.mode)
        } catch {
            card.close()
            throw error
        }
        rotation = settings.rotation ?? Self.rotation(of: display.rotation)
        let mode = display.modeInfo
        logicalSize = rotation == .quarter || rotation == .threeQuarters
            ? Size(width: mode.height, height: mode.width) : Size(width: mode.width, height: mode.height)
        refreshPeriod = 1 / max(1, mode.refreshRate)
        for line in display.describe().split(separator: "\n") { logger.info("display: \(line)") }
        logger.info("display: rotation \(rotation.rawValue)° (\(settings.rotation == nil ? "panel orientation" : "display.rotation")), scene \(Int(logicalSize.width))x\(Int(logicalSize.height))")
    }

    /// The card `display.card` names, else the first with a display connected.
    static func openCard(_ settings: Settings.Display) throws -> DRMCard {
        try settings.card.map { try DRMCard(path: $0) } ?? DRMCard.discover()
    }

    /// DRM's panel orientation says how the panel is mounted; the picture is turned to undo it
    /// (the kernel's drm_client_rotation: "Left Side Up" is a 90° counter-clockwise turn).
    public static func rotation(of orientation: PanelOrientation) -> Settings.Rotation {
        switch orientation {
        case .normal: return .none
        case .upsideDown: return .half
        case .leftSideUp: return .threeQuarters
        case .rightSideUp: return .quarter
        }
    }

    public var fileDescriptor: Int32 { display.fileDescriptor }
    public var isFlipPending: Bool { display.isFlipPending }
    public var lastFlipTime: Double? { display.lastFlipTime }

    /// Buffer rows the last `present` wrote into the display (0 for a frame that changed nothing).
    public var rowsWritten: Int { display.rowsWritten }

    /// Shows `frame`, of which `changedRows` changed since the frame presented before (nil: all
    /// of them, or unknown). After a frame that failed, or a frame that was not the caller's
    /// (the black one of `switchOff`), the next is written whole: the caller's rows are counted
    /// from its own frame before, which the buffers may not hold.
    public func present(_ frame: Bitmap, changedRows: RowSet? = nil) throws {
        let changed = wholeFrameOwed ? nil : changedRows
        wholeFrameOwed = true
        try presentTurned(frame, changedRows: changed)
        wholeFrameOwed = false
    }

    /// `frame` turned for the panel: upside down the rows are mirrored; a quarter turn makes each
    /// row of the frame a column of the panel, so every row is written.
    private func presentTurned(_ frame: Bitmap, changedRows: RowSet?) throws {
        guard rotation != .none else {
            try display.present(frame, dirtyRows: changedRows)
            return
        }
        var target = turned ?? Bitmap(width: Int(display.modeInfo.width), height: Int(display.modeInfo.height))
        frame.rotated(quarterTurns: rotation.rawValue / 90, into: &target)
        turned = target
        let rows = rotation == .half ? changedRows?.flipped(height: frame.height) : nil
        try display.present(target, dirtyRows: rows)
    }

    /// Blanking: DPMS off, or, on a connector without DPMS, a black frame. Returns how.
    public func switchOff() -> String {
        do {
            try display.setPower(on: false)
            return "off (DPMS)"
        } catch {
            try? presentTurned(Bitmap(width: Int(logicalSize.width), height: Int(logicalSize.height), color: Pixel.black),
                               changedRows: nil)
            wholeFrameOwed = true
            return "black (no DPMS: \(error))"
        }
    }

    public func switchOn() {
        try? display.setPower(on: true)
    }

    public func close(logger: Logger) {
        if let error = display.close() {
            logger.error("could not restore the display: \(error)")
        }
        display.card.close()
    }
}
