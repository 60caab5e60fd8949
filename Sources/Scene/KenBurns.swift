import Geometry

/// The Ken Burns motion of one photo on its slide, as plain geometry: a linear zoom from its rect at
/// rest to `maxScale` times it, and a pan that carries the photo's focus (its centre, or for a
/// portrait the middle of its upper third, where faces are) from where it is at rest to the rest
/// rect's centre (the screen's centre for a slide of one), clamped so that the zoomed photo never
/// uncovers more black than at rest.
enum KenBurns {
    /// The zoom at the end of a slide's time on screen.
    static let maxScale = 1.1

    /// The focus in the photo's own coordinates (0...1 on each axis): the middle of the upper third
    /// for a portrait photo (taller than wide), else the centre.
    static func focus(of size: Size) -> Point {
        Point(x: 0.5, y: size.height > size.width ? 1.0 / 3 : 0.5)
    }

    /// The photo's rect at `progress` (0...1 of its time on screen): `rest` scaled by
    /// 1 + (`scale` - 1) x progress, the focus moved linearly from its place at rest to `rest`'s
    /// centre, then on each axis kept inside `region` where the photo is smaller than it, or
    /// covering `region` where it is larger (so black never grows, and a pair's photo stays in its half).
    static func rect(rest: Rect, region: Rect, focus: Point, scale: Double, progress: Double) -> Rect {
        let u = min(max(progress, 0), 1)
        let s = 1 + (scale - 1) * u
        let width = rest.width * s, height = rest.height * s
        let start = Point(x: rest.x + focus.x * rest.width, y: rest.y + focus.y * rest.height)
        let end = rest.center
        let fixed = Point(x: start.x + (end.x - start.x) * u, y: start.y + (end.y - start.y) * u)
        return Rect(x: clamp(fixed.x - focus.x * width, length: width, within: region.minX, region.maxX),
                    y: clamp(fixed.y - focus.y * height, length: height, within: region.minY, region.maxY),
                    width: width, height: height)
    }

    /// The origin on one axis: inside lower...upper where `length` fits between them, else covering them.
    private static func clamp(_ origin: Double, length: Double, within lower: Double, _ upper: Double) -> Double {
        if length <= upper - lower { return min(max(origin, lower), upper - length) }
        return min(max(origin, upper - length), lower)
    }
}
