import Config
import Geometry
import Touch

/// How device coordinates reach the screen, the same for `run` and `simulate`.
public enum TouchMapping {
    /// The clockwise turn applied to device coordinates. The scene draws upright and the picture is
    /// turned clockwise by the display's rotation on its way to the panel; the touch layer sits on
    /// the panel, so its coordinates are turned back the other way. `input.rotation` names the
    /// display rotation the touch follows ("auto": the display's own).
    public static func transformRotation(input: Settings.Input, displayRotation: Settings.Rotation) -> Int {
        let follows = (input.rotation ?? displayRotation).rawValue
        return (360 - follows) % 360
    }

    public static func transform(for device: DeviceDescription, screen: Size, input: Settings.Input,
                          displayRotation: Settings.Rotation) throws -> TouchTransform {
        try TouchTransform(device: device, screen: screen,
                           rotation: transformRotation(input: input, displayRotation: displayRotation),
                           swapXY: input.swapXY, invertX: input.invertX, invertY: input.invertY,
                           calibration: input.calibration)
    }
}
