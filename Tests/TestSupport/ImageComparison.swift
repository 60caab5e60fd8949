import Blitter

/// The largest difference of any channel of any pixel of two bitmaps of the same size.
public func largestDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
    var largest = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a[x, y], q = b[x, y]
            largest = max(largest, abs(Int(Pixel.red(p)) - Int(Pixel.red(q))), abs(Int(Pixel.green(p)) - Int(Pixel.green(q))),
                          abs(Int(Pixel.blue(p)) - Int(Pixel.blue(q))))
        }
    }
    return largest
}

/// Mean absolute difference per channel (0...255) of two bitmaps of the same size.
public func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
    var total = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a[x, y], q = b[x, y]
            total += abs(Int(Pixel.red(p)) - Int(Pixel.red(q)))
            total += abs(Int(Pixel.green(p)) - Int(Pixel.green(q)))
            total += abs(Int(Pixel.blue(p)) - Int(Pixel.blue(q)))
        }
    }
    return Double(total) / Double(3 * a.width * a.height)
}

/// Pearson correlation of one channel of two bitmaps of the same size.
public func correlation(_ a: Bitmap, _ b: Bitmap, _ channel: (UInt32) -> UInt8) -> Double {
    let x = a.pixels.prefix(a.stride * a.height).map { Double(channel($0)) }
    let y = b.pixels.prefix(b.stride * b.height).map { Double(channel($0)) }
    let mx = x.reduce(0, +) / Double(x.count), my = y.reduce(0, +) / Double(y.count)
    var sxy = 0.0, sxx = 0.0, syy = 0.0
    for (p, q) in zip(x, y) {
        sxy += (p - mx) * (q - my)
        sxx += (p - mx) * (p - mx)
        syy += (q - my) * (q - my)
    }
    return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
}

/// Standard deviation of the luma, to tell a picture from a flat fill.
public func lumaSpread(_ bitmap: Bitmap) -> Double {
    var values: [Double] = []
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width {
            let p = bitmap[x, y]
            values.append(0.299 * Double(Pixel.red(p)) + 0.587 * Double(Pixel.green(p)) + 0.114 * Double(Pixel.blue(p)))
        }
    }
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
}
