import CDRM
import Geometry

/// One video mode a connector offers, with the kernel's mode record kept for SetCrtc.
public struct DisplayMode: Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Refresh rate in Hz computed from the pixel clock and totals (59.94, not 60, when so).
    public let refreshRate: Double
    /// The display's preferred mode (usually its native resolution).
    public let isPreferred: Bool
    let info: drmModeModeInfo

    init(_ info: drmModeModeInfo) {
        self.init(info, refreshRate: DisplayMode.refreshRate(of: info))
    }

    private init(_ info: drmModeModeInfo, refreshRate: Double) {
        self.info = info
        width = Int(info.hdisplay)
        height = Int(info.vdisplay)
        isPreferred = info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
        self.refreshRate = refreshRate
    }

    /// A mode from plain values, for mode selection without a device.
    public init(width: Int, height: Int, refreshRate: Double, isPreferred: Bool = false) {
        var info = drmModeModeInfo()
        info.hdisplay = UInt16(clamping: width)
        info.vdisplay = UInt16(clamping: height)
        info.vrefresh = UInt32(clamping: Int(refreshRate.rounded()))
        info.type = isPreferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        // Kept as given: the record has no pixel clock to compute 59.94 from.
        self.init(info, refreshRate: refreshRate)
    }

    /// "1920x1080@60" in the same words a user writes in the config.
    public var description: String {
        "\(width)x\(height)@\(Self.format(refreshRate))"
    }

    /// Refresh as libdrm's modetest computes it: clock / (htotal * vtotal), with interlace and
    /// double scan folded in. Falls back to the driver's rounded vrefresh when totals are missing.
    static func refreshRate(of info: drmModeModeInfo) -> Double {
        guard info.htotal > 0, info.vtotal > 0, info.clock > 0 else { return Double(info.vrefresh) }
        var rate = Double(info.clock) * 1000 / (Double(info.htotal) * Double(info.vtotal))
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
        if info.vscan > 1 { rate /= Double(info.vscan) }
        return rate
    }

    static func format(_ rate: Double) -> String {
        let rounded = (rate * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(saturating: rounded)) : String(rounded)
    }
}
