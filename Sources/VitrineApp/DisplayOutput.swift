import Blitter
import Config
import DRM
import Geometry
import Linux
import Logging

/// The DRM display as the kiosk uses it: opened from the settings, turned to the configured
/// rotation, presenting frames composed in ordinary memory.
final class DisplayOutput {
    let display: KMSDisplay
    /// Clockwise turn from the scene's upright picture to the panel.
    let rotation: Settings.Rotation
    /// The size the scene draws at: the mode's, swapped for a quarter turn.
    let logicalSize: Size
    let refreshPeriod: Double
    private var turned: Bitmap?

    init(settings: Settings.Display, logger: Logger) throws {
        let card: DRMCard
        do {
            card = try settings.card.map { try DRMCard(path: $0) } ?? DRMCard.discover()
        } catch let error as DRMError {
            throw AppError(error.description)
        }
        do {
            display = try KMSDisplay(card: card, connector: settings.connector, mode: settings.mode)
        } catch {
            card.close()
            throw (error as? DRMError).map { AppError($0.description) } ?? error
        }
        rotation = settings.rotation ?? Self.rotation(of: display.rotation)
        let mode = display.modeInfo
        logicalSize = rotation == .quarter || rotation == .threeQuarters
            ? Size(width: mode.height, height: mode.width) : Size(width: mode.width, height: mode.height)
        refreshPeriod = 1 / max(1, mode.refreshRate)
        for line in display.describe().split(separator: "\n") { logger.info("display: \(line)") }
        logger.info("display: rotation \(rotation.rawValue)° (\(settings.rotation == nil ? "panel orientation" : "display.rotation")), scene \(Int(logicalSize.width))x\(Int(logicalSize.height))")
    }

    /// DRM's panel orientation says how the panel is mounted; the picture is turned to undo it
    /// (the kernel's drm_client_rotation: "Left Side Up" is a 90° counter-clockwise turn).
    static func rotation(of orientation: PanelOrientation) -> Settings.Rotation {
        switch orientation {
        case .normal: return .none
        case .upsideDown: return .half
        case .leftSideUp: return .threeQuarters
        case .rightSideUp: return .quarter
        }
    }

    var fileDescriptor: Int32 { display.fileDescriptor }
    var isFlipPending: Bool { display.isFlipPending }
    var lastFlipTime: Double? { display.lastFlipTime }

    func present(_ frame: Bitmap) throws {
        guard rotation != .none else {
            try display.present(frame)
            return
        }
        var target = turned ?? Bitmap(width: Int(display.modeInfo.width), height: Int(display.modeInfo.height))
        frame.rotated(quarterTurns: rotation.rawValue / 90, into: &target)
        turned = target
        try display.present(target)
    }


    func close(logger: Logger) {
        if let error = display.close() {
            logger.error("could not restore the display: \(error)")
        }
        display.card.close()
    }
}
