import Geometry

/// Closeness of numbers, for readable expectations.
public func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

/// Closeness of rects, each of x, y, width and height within `tolerance`; two nils are close.
public func near(_ a: Rect?, _ b: Rect?, _ tolerance: Double = 1e-6) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return near(a.x, b.x, tolerance) && near(a.y, b.y, tolerance)
        && near(a.width, b.width, tolerance) && near(a.height, b.height, tolerance)
}
