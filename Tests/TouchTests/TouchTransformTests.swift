import Geometry
import Testing
@testable import Touch

@Suite struct TouchTransformTests {
    static let screen = Size(width: 100, height: 50)

    static func transform(rotation: Int = 0, swapXY: Bool = false, invertX: Bool = false, invertY: Bool = false,
                          calibration: [Double]? = nil) throws -> TouchTransform {
        try TouchTransform(screen: screen, xRange: 0...1000, yRange: 0...1000, rotation: rotation,
                           swapXY: swapXY, invertX: invertX, invertY: invertY, calibration: calibration)
    }

    @Test func mapsTheAxisRangeOntoTheScreen() throws {
        let transform = try TouchTransform(screen: Size(width: 800, height: 480), xRange: 0...799, yRange: 0...479)
        #expect(transform.point(x: 0, y: 0) == Point(x: 0, y: 0))
        #expect(transform.point(x: 799, y: 479) == Point(x: 800, y: 480))
        let offset = try TouchTransform(screen: Self.screen, xRange: 42...1042, yRange: -100...100)
        #expect(offset.point(x: 542, y: 0) == Point(x: 50, y: 25))
    }

    @Test func clampsPositionsOutsideTheAxisRangeToTheScreen() throws {
        let transform = try Self.transform()
        #expect(transform.point(x: -50, y: 1200) == Point(x: 0, y: 50))
    }

    /// Device corners (top left, top right, bottom left) after each clockwise rotation.
    @Test(arguments: [
        (0, [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 0, y: 50)]),
        (90, [Point(x: 100, y: 0), Point(x: 100, y: 50), Point(x: 0, y: 0)]),
        (180, [Point(x: 100, y: 50), Point(x: 0, y: 50), Point(x: 100, y: 0)]),
        (270, [Point(x: 0, y: 50), Point(x: 0, y: 0), Point(x: 100, y: 50)]),
    ])
    func rotatesClockwise(_ rotation: Int, _ corners: [Point]) throws {
        let transform = try Self.transform(rotation: rotation)
        #expect([transform.point(x: 0, y: 0), transform.point(x: 1000, y: 0), transform.point(x: 0, y: 1000)] == corners)
    }

    /// libinput's documented rotation matrices (LIBINPUT_CALIBRATION_MATRIX) agree with `rotation`.
    @Test(arguments: [
        (0, [1.0, 0, 0, 0, 1, 0]),
        (90, [0.0, -1, 1, 1, 0, 0]),
        (180, [-1.0, 0, 1, 0, -1, 1]),
        (270, [0.0, 1, 0, -1, 0, 1]),
    ])
    func calibrationMatrixMatchesLibinputsRotations(_ rotation: Int, _ matrix: [Double]) throws {
        let rotated = try Self.transform(rotation: rotation)
        let calibrated = try Self.transform(calibration: matrix)
        #expect(rotated.matrix == matrix)
        for (x, y) in [(0, 0), (1000, 0), (0, 1000), (250, 750), (1000, 1000)] as [(Int32, Int32)] {
            #expect(rotated.point(x: x, y: y) == calibrated.point(x: x, y: y))
        }
    }

    @Test func libinputsNinetyDegreeMatrixTakesTopLeftToTopRight() throws {
        let transform = try Self.transform(calibration: [0, -1, 1, 1, 0, 0])
        #expect(transform.point(normalisedX: 0, normalisedY: 0) == Point(x: 1, y: 0))
        #expect(transform.point(normalisedX: 1, normalisedY: 0) == Point(x: 1, y: 1))
        #expect(transform.point(x: 0, y: 0) == Point(x: 100, y: 0))
    }

    @Test func calibrationScalesAndOffsets() throws {
        // A panel whose touch area overhangs the picture by 10 % on the left: x' = 1.1x - 0.1.
        let transform = try Self.transform(calibration: [1.1, 0, -0.1, 0, 1, 0])
        #expect(transform.point(x: 0, y: 0) == Point(x: 0, y: 0))  // clamped from -10 px
        #expect(abs(transform.point(x: 500, y: 500).x - 45) < 1e-9)
        #expect(abs(transform.point(x: 1000, y: 500).x - 100) < 1e-9)
    }

    @Test func swapsAndInverts() throws {
        #expect(try Self.transform(swapXY: true).point(x: 1000, y: 0) == Point(x: 0, y: 50))
        #expect(try Self.transform(invertX: true).point(x: 0, y: 200) == Point(x: 100, y: 10))
        #expect(try Self.transform(invertY: true).point(x: 300, y: 0) == Point(x: 30, y: 50))
        // Inverting applies to the swapped axes: device top right -> screen bottom right.
        #expect(try Self.transform(swapXY: true, invertX: true).point(x: 1000, y: 0) == Point(x: 100, y: 50))
    }

    @Test func rejectsBadSettings() throws {
        #expect(throws: TouchTransformError.badRotation(45)) { try Self.transform(rotation: 45) }
        #expect(throws: TouchTransformError.badCalibration([1, 0, 0, 0, 1])) {
            try Self.transform(calibration: [1, 0, 0, 0, 1])
        }
        #expect(throws: TouchTransformError.self) { try Self.transform(calibration: [1, 0, .nan, 0, 1, 0]) }
        #expect(throws: TouchTransformError.emptyAxisRange(5...5)) {
            try TouchTransform(screen: Self.screen, xRange: 5...5, yRange: 0...10)
        }
        #expect(throws: TouchTransformError.self) {
            try TouchTransform(screen: .zero, xRange: 0...10, yRange: 0...10)
        }
    }

    @Test func takesTheDevicesPositionAxes() throws {
        var device = DeviceDescription(events: [
            EventType.syn: [EventType.abs, EventType.key], EventType.key: [KeyCode.btnTouch],
            EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY],
        ], axes: [
            AbsCode.x: .init(minimum: 0, maximum: 10), AbsCode.y: .init(minimum: 0, maximum: 20),
            AbsCode.mtSlot: .init(minimum: 0, maximum: 9),
            AbsCode.mtPositionX: .init(minimum: 0, maximum: 4095), AbsCode.mtPositionY: .init(minimum: 5, maximum: 2047),
        ])
        var transform = try TouchTransform(device: device, screen: Self.screen, rotation: 90)
        #expect(transform.xRange == 0...4095 && transform.yRange == 5...2047 && transform.rotation == 90)
        device.events[EventType.abs] = [AbsCode.x, AbsCode.y]
        transform = try TouchTransform(device: device, screen: Self.screen)
        #expect(transform.xRange == 0...10 && transform.yRange == 0...20)
        device.events[EventType.key] = []
        #expect(throws: TouchTransformError.self) { try TouchTransform(device: device, screen: Self.screen) }
    }
}
