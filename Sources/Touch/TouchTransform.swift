import Geometry
import Quoting

/// Maps a touch device's coordinates onto the screen, as `run` and `simulate` both do.
///
/// A position is first normalised on the device's axis ranges (minimum -> 0, maximum -> 1), then
/// goes through, in this order:
/// 1. the calibration matrix `[a, b, c, d, e, f]`, exactly as libinput's
///    LIBINPUT_CALIBRATION_MATRIX: `x' = a·x + b·y + c`, `y' = d·x + e·y + f` in normalised
///    coordinates with (0, 0) the device's top left corner;
/// 2. swapXY, then invertX / invertY (on the already swapped axes, as xf86-input-evdev does);
/// 3. rotation, clockwise: `rotation: 90` is the same as libinput's documented 90° matrix
///    `[0, -1, 1, 1, 0, 0]`, which takes the device's top left (0, 0) to the top right (1, 0)
///    and its top right (1, 0) to the bottom right (1, 1);
///
/// and is finally scaled to the screen (0...1 -> 0...width), clamped to the screen's edges.
/// The configuration offers rotation/swap/invert *or* a calibration matrix; the transform
/// composes whatever it is given, so either alone behaves as documented.
public struct TouchTransform: Hashable, Sendable {
    public let screen: Size
    public let xRange: ClosedRange<Int32>
    public let yRange: ClosedRange<Int32>
    public let rotation: Int
    public let swapXY: Bool
    public let invertX: Bool
    public let invertY: Bool
    public let calibration: [Double]?
    /// Everything before the scaling, as one matrix `[a, b, c, d, e, f]` in normalised coordinates.
    public let matrix: [Double]

    public init(screen: Size, xRange: ClosedRange<Int32>, yRange: ClosedRange<Int32>, rotation: Int = 0,
                swapXY: Bool = false, invertX: Bool = false, invertY: Bool = false,
                calibration: [Double]? = nil) throws {
        guard screen.width > 0, screen.height > 0, screen.width.isFinite, screen.height.isFinite else {
            throw TouchTransformError.emptyScreen(screen)
        }
        guard xRange.lowerBound < xRange.upperBound else { throw TouchTransformError.emptyAxisRange(xRange) }
        guard yRange.lowerBound < yRange.upperBound else { throw TouchTransformError.emptyAxisRange(yRange) }
        var matrix = Affine.identity
        if let calibration {
            guard calibration.count == 6, calibration.allSatisfy(\.isFinite) else {
                throw TouchTransformError.badCalibration(calibration)
            }
            matrix = Affine(calibration)
        }
        if swapXY { matrix = Affine([0, 1, 0, 1, 0, 0]) * matrix }
        if invertX { matrix = Affine([-1, 0, 1, 0, 1, 0]) * matrix }
        if invertY { matrix = Affine([1, 0, 0, 0, -1, 1]) * matrix }
        switch rotation {
        case 0: break
        case 90: matrix = Affine([0, -1, 1, 1, 0, 0]) * matrix
        case 180: matrix = Affine([-1, 0, 1, 0, -1, 1]) * matrix
        case 270: matrix = Affine([0, 1, 0, -1, 0, 1]) * matrix
        default: throw TouchTransformError.badRotation(rotation)
        }
        self.screen = screen
        self.xRange = xRange
        self.yRange = yRange
        self.rotation = rotation
        self.swapXY = swapXY
        self.invertX = invertX
        self.invertY = invertY
        self.calibration = calibration
        self.matrix = matrix.values
    }

    /// The transform for `device`'s position axes (see `DeviceDescription.positionAxes`).
    public init(device: DeviceDescription, screen: Size, rotation: Int = 0, swapXY: Bool = false,
                invertX: Bool = false, invertY: Bool = false, calibration: [Double]? = nil) throws {
        guard let axes = device.positionAxes, let x = device.axes[axes.x]?.range, let y = device.axes[axes.y]?.range
        else { throw TouchTransformError.noPositionAxes(device.name) }
        try self.init(screen: screen, xRange: x, yRange: y, rotation: rotation, swapXY: swapXY,
                      invertX: invertX, invertY: invertY, calibration: calibration)
    }

    /// The same orientation and screen for other device axes.
    public func withAxisRanges(x: ClosedRange<Int32>, y: ClosedRange<Int32>) throws -> TouchTransform {
        try TouchTransform(screen: screen, xRange: x, yRange: y, rotation: rotation, swapXY: swapXY,
                           invertX: invertX, invertY: invertY, calibration: calibration)
    }

    /// A device position in screen pixels.
    public func point(x: Int32, y: Int32) -> Point {
        let nx = (Double(x) - Double(xRange.lowerBound)) / (Double(xRange.upperBound) - Double(xRange.lowerBound))
        let ny = (Double(y) - Double(yRange.lowerBound)) / (Double(yRange.upperBound) - Double(yRange.lowerBound))
        let mapped = point(normalisedX: nx, normalisedY: ny)
        return Point(x: mapped.x * screen.width, y: mapped.y * screen.height)
    }

    /// A normalised device position (0...1 on both axes) after calibration, swap, invert and
    /// rotation, clamped to 0...1. A finite but huge matrix (1e308) can make infinities of
    /// opposite signs meet, which is NaN: that is 0, so the scene only ever sees points on screen.
    public func point(normalisedX x: Double, normalisedY y: Double) -> Point {
        let m = matrix
        let mx = m[0] * x + m[1] * y + m[2]
        let my = m[3] * x + m[4] * y + m[5]
        return Point(x: mx.bounded(by: 0...1), y: my.bounded(by: 0...1))
    }
}

public enum TouchTransformError: Error, Hashable, Sendable, CustomStringConvertible {
    case badRotation(Int)
    case badCalibration([Double])
    case emptyAxisRange(ClosedRange<Int32>)
    case emptyScreen(Size)
    case noPositionAxes(String)

    public var description: String {
        switch self {
        case .badRotation(let degrees): return "input rotation \(degrees) is not one of 0, 90, 180, 270"
        case .badCalibration(let values):
            return "calibration matrix needs 6 finite numbers [a, b, c, d, e, f], got \(values)"
        case .emptyAxisRange(let range): return "touch axis range \(range) is empty"
        case .emptyScreen(let size): return "screen size \(size) is empty"
        case .noPositionAxes(let name): return "input device '\(Excerpt(name))' has no usable position axes"
        }
    }
}

/// A 2x3 affine matrix `[a, b, c, d, e, f]`: `x' = a·x + b·y + c`, `y' = d·x + e·y + f`.
private struct Affine {
    var values: [Double]

    init(_ values: [Double]) { self.values = values }

    static let identity = Affine([1, 0, 0, 0, 1, 0])

    /// `lhs` applied after `rhs`.
    static func * (lhs: Affine, rhs: Affine) -> Affine {
        let l = lhs.values, r = rhs.values
        return Affine([
            l[0] * r[0] + l[1] * r[3], l[0] * r[1] + l[1] * r[4], l[0] * r[2] + l[1] * r[5] + l[2],
            l[3] * r[0] + l[4] * r[3], l[3] * r[1] + l[4] * r[4], l[3] * r[2] + l[4] * r[5] + l[5],
        ])
    }
}
